-- Drives `tick lsp` from Neovim 0.7's own client (NeovimLSPTests): a diagnostic on a date typed
-- wrong, completion after due:, the code actions of a repeating task, and its "complete" applied
-- and written. Every wait is bounded: a broken server fails the run instead of hanging it.
-- TICK_BIN: the tick binary; TICK_FOLDER: the task folder; TICK_RESULT: where the outcome goes;
-- TICK_COPY: where the list is copied just before "complete" is applied; TICK_FRIDAY: the date of `fri`.
local tick, folder = os.getenv('TICK_BIN'), os.getenv('TICK_FOLDER')
local result_path, copy_path = os.getenv('TICK_RESULT'), os.getenv('TICK_COPY')
local friday = os.getenv('TICK_FRIDAY')
local notes = {}

local function finish(ok, message)
  local f = io.open(result_path, 'w')
  f:write((ok and 'OK' or 'FAIL') .. ' ' .. message .. '\n' .. table.concat(notes, '\n') .. '\n')
  f:close()
  vim.cmd(ok and 'qall!' or 'cquit! 1')
end

local function check(condition, message)
  if not condition then error(message, 0) end
end

local function copy_file(from, to)
  local input = assert(io.open(from, 'rb'))
  local bytes = input:read('*a')
  input:close()
  local output = assert(io.open(to, 'wb'))
  output:write(bytes)
  output:close()
end

local function run()
  local client_id = vim.lsp.start_client({
    name = 'tick', cmd = { tick, 'lsp' }, root_dir = folder,
    flags = { debounce_text_changes = 0 },
  })
  check(client_id, 'vim.lsp.start_client returned nothing')
  local path = folder .. '/home.md'
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  check(vim.lsp.buf_attach_client(buf, client_id), 'buf_attach_client failed')
  local client = vim.lsp.get_client_by_id(client_id)
  check(vim.wait(10000, function() return client.server_capabilities ~= nil and client.server_capabilities.codeActionProvider ~= nil end, 20),
        'the server did not answer initialize within 10 s')
  local uri = vim.uri_from_bufnr(buf)

  -- An invalid date typed on line 3: a diagnostic on its token.
  local line = '- [ ] Water the plants due:2026-13-01'
  vim.api.nvim_buf_set_lines(buf, 2, 3, false, { line })
  local found
  check(vim.wait(5000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.lnum == 2 and d.message:find('2026%-13%-01') then found = d return true end
    end
    return false
  end, 20), 'no diagnostic on the invalid date within 5 s')
  check(found.col == line:find('due:') - 1, 'the diagnostic starts at column ' .. found.col)
  check(found.end_col == #line, 'the diagnostic ends at column ' .. tostring(found.end_col))
  table.insert(notes, 'diagnostic: ' .. found.message)

  -- Completion after due: offers the ISO date of fri.
  vim.api.nvim_buf_set_lines(buf, -1, -1, false, { '- [ ] Call the plumber due:fr' })
  local last = vim.api.nvim_buf_line_count(buf) - 1
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = last, character = 29 } }, 5000)
  check(responses and responses[client_id] and responses[client_id].result, 'no completion within 5 s')
  local item
  for _, candidate in ipairs(responses[client_id].result) do
    if candidate.label == 'fri' then item = candidate end
  end
  check(item and item.textEdit.newText == friday, 'completion offers no fri inserting ' .. friday)
  vim.lsp.util.apply_text_edits({ item.textEdit }, buf, 'utf-16')
  check(vim.api.nvim_buf_get_lines(buf, last, last + 1, false)[1] == '- [ ] Call the plumber due:' .. friday,
        'the completion did not insert the date')
  table.insert(notes, 'completion: fri -> ' .. item.textEdit.newText)

  -- The code actions of the repeating task (line 5), asked as 0.7's picker would.
  responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = 4, character = 0 }, ['end'] = { line = 4, character = 0 } },
    context = { diagnostics = {} },
  }, 5000)
  check(responses and responses[client_id] and responses[client_id].result, 'no code actions within 5 s')
  local complete
  for _, action in ipairs(responses[client_id].result) do
    table.insert(notes, 'action: ' .. action.title)
    if action.title:find('^Complete') then complete = action end
  end
  check(complete and complete.edit, 'no "Complete" action with an edit')

  -- The buffer as it is now, written and copied, for tick done to complete the same bytes.
  vim.cmd('write')
  copy_file(path, copy_path)
  vim.lsp.util.apply_workspace_edit(complete.edit, 'utf-16')
  vim.cmd('write')
  vim.lsp.stop_client(client_id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
end

local ok, err = pcall(run)
if ok then finish(true, 'done') else finish(false, tostring(err)) end
