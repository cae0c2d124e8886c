-- A Neovim session for tests/editors/test_nvim.py, run as `nvim --headless -u THIS_FILE`: the
-- user's setup of editors/nvim (rtp, filetype plugins, require("arbo").setup), then it opens
-- $ARBO_TEST_RECORD, waits for arbo lsp's diagnostics, types each line of $ARBO_TEST_TYPED as the
-- record's new last line and asks the server for completions at its end. What it saw goes to $ARBO_TEST_OUT as JSON.
local root = os.getenv("ARBO_TEST_ROOT")
vim.opt.runtimepath:prepend(root .. "/editors/nvim")
vim.cmd("filetype plugin on")
vim.cmd("syntax on")
require("arbo").setup({ cmd = { os.getenv("ARBO_TEST_PYTHON"), "-m", "arbo_notation", "lsp" } })

local seen = { filetype = nil, diagnostics = {}, completions = {}, errors = {} }
local function finish()
  vim.fn.writefile({ vim.fn.json_encode(seen) }, os.getenv("ARBO_TEST_OUT"))
  vim.cmd("qall!")
end

local ok, problem = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("ARBO_TEST_RECORD")))
  local buffer = vim.api.nvim_get_current_buf()
  seen.filetype = vim.bo[buffer].filetype
  vim.wait(30000, function()
    return #vim.diagnostic.get(buffer) > 0
  end, 20)
  for _, d in ipairs(vim.diagnostic.get(buffer)) do
    table.insert(seen.diagnostics, {
      lnum = d.lnum,
      col = d.col,
      severity = d.severity,
      message = d.message,
      source = d.source,
    })
  end
  seen.omnifunc = vim.bo[buffer].omnifunc -- set when the client attached
  -- Each text of $ARBO_TEST_TYPED (one a line) typed in turn as the record's new last line.
  local last = vim.api.nvim_buf_line_count(buffer)
  for index, typed in ipairs(vim.split(os.getenv("ARBO_TEST_TYPED"), "\n", { plain = true })) do
    local replaced = index == 1 and last or last + 1
    vim.api.nvim_buf_set_lines(buffer, last, replaced, false, { typed })
    -- The cursor after the typed text, as in insert mode (normal mode keeps it on the last character).
    local params = {
      textDocument = vim.lsp.util.make_text_document_params(buffer),
      position = { line = last, character = #typed },
    }
    local labels = {}
    local answers = vim.lsp.buf_request_sync(buffer, "textDocument/completion", params, 30000) or {}
    for _, answer in pairs(answers) do
      if answer.err then
        table.insert(seen.errors, vim.inspect(answer.err))
      end
      for _, item in ipairs(answer.result and (answer.result.items or answer.result) or {}) do
        table.insert(labels, item.label)
      end
    end
    table.insert(seen.completions, { typed = typed, labels = labels })
  end
  -- A second record of the same folder: the same server, not a second one.
  vim.cmd("edit " .. vim.fn.fnameescape(vim.fn.fnamemodify(os.getenv("ARBO_TEST_RECORD"), ":h") .. "/second.arb"))
  local second = vim.api.nvim_get_current_buf()
  vim.wait(10000, function()
    return #vim.lsp.buf_get_clients(second) > 0
  end, 20)
  seen.clients_of_second = #vim.lsp.buf_get_clients(second)
  seen.clients = #vim.lsp.get_active_clients()
end)
if not ok then
  table.insert(seen.errors, tostring(problem))
end
finish()
