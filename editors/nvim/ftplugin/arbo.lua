-- A record of Arboretum (.arb): comments as the notation writes them, and arbo lsp attached.
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = true

vim.bo.commentstring = "{%s}"
vim.bo.comments = ":;"
vim.bo.expandtab = true -- the canonical form has no tabs (arbo fmt)
vim.b.undo_ftplugin = "setlocal commentstring< comments< expandtab<"

if vim.g.arbo_lsp ~= false then
  require("arbo").attach(vim.api.nvim_get_current_buf())
end
