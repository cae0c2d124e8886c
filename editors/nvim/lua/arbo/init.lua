-- arbo for Neovim: starts `arbo lsp` for .arb buffers, one server per project folder.
--
--   require("arbo").setup({ cmd = { "arbo", "lsp" } })   -- in init.lua (optional)
--
-- ftplugin/arbo.lua calls attach() for each .arb buffer. On Neovim 0.7 (Debian 12's 0.7.2) it
-- starts the server with vim.lsp.start_client and attaches with vim.lsp.buf_attach_client; on
-- 0.8 and later vim.lsp.start does both (docs/EDITORS.md also shows vim.lsp.config of 0.11).
local M = {}

M.config = {
  -- The command that runs the server: `arbo lsp`, or a virtual environment's
  -- { "/path/to/venv/bin/python", "-m", "arbo_notation", "lsp" }.
  cmd = { "arbo", "lsp" },
  -- Files whose folder is the project's root; the file's own folder when none is found.
  root_markers = { ".git", "pyproject.toml" },
  -- The server's initialization options: { workspaceDiagnostics = false } checks the open
  -- buffers only, not every .arb file of the project folder.
  init_options = {},
  on_attach = nil,
}

local clients = {} -- root folder -> client id

function M.setup(options)
  M.config = vim.tbl_extend("force", M.config, options or {})
end

local function root_of(buffer)
  local name = vim.api.nvim_buf_get_name(buffer)
  local folder = name ~= "" and vim.fn.fnamemodify(name, ":p:h") or vim.fn.getcwd()
  for _, marker in ipairs(M.config.root_markers) do
    local dir = vim.fn.finddir(marker, folder .. ";")
    if dir ~= "" then
      return vim.fn.fnamemodify(dir, ":p:h:h") -- ":p" ends a folder with "/"
    end
    local file = vim.fn.findfile(marker, folder .. ";")
    if file ~= "" then
      return vim.fn.fnamemodify(file, ":p:h")
    end
  end
  return folder
end

-- Start the server for the buffer's project (or reuse the one running) and attach the buffer.
function M.attach(buffer)
  buffer = buffer or vim.api.nvim_get_current_buf()
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    vim.notify("arbo: cannot run " .. M.config.cmd[1] .. ": pip install 'arbo-notation[lsp]', or set cmd in require('arbo').setup", vim.log.levels.WARN)
    return nil
  end
  local root = root_of(buffer)
  local config = {
    name = "arbo",
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = M.config.init_options,
    on_attach = function(client, attached)
      vim.bo[attached].omnifunc = "v:lua.vim.lsp.omnifunc"
      if M.config.on_attach then
        M.config.on_attach(client, attached)
      end
    end,
  }
  if vim.lsp.start then -- 0.8 and later: it reuses a client of the same name and root itself
    return vim.lsp.start(config, { bufnr = buffer })
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    config.on_exit = function()
      clients[root] = nil
    end
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id ~= nil then
    vim.lsp.buf_attach_client(buffer, id)
  end
  return id
end

return M
