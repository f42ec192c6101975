-- wrk script: POSTs request bodies taken from a pool, and counts responses by status.
--
--   wrk -t<T> -s bench/wrk-pool.lua <url> -- <T> <bodies file> [<next pattern> <next body>]
--
-- The file holds one body per line; thread i (from 0) takes lines i+1, i+1+T, i+1+2T, …
-- Without a pattern the bodies are sent round-robin (e.g. sign-ins of a few accounts).
-- With one, each body is sent once, and a 200 response puts <next body> back into the pool with
-- "%s" replaced by the pattern's first capture: a chain of refresh tokens per body, each token
-- presented exactly once. A chain ends at its first non-200 answer; when a thread has no body
-- left it sends "{}" (an invalid request) and counts it as starved. Give each thread more bodies
-- than it has connections.
--
-- done() prints "status <code> <count>" per status and "starved <count>" (parsed by
-- bench/support.ts).

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  local count = tonumber(args[1])
  local file = assert(io.open(args[2], "r"))
  pool, head, tail = {}, 1, 0
  local n = 0
  for line in file:lines() do
    if line ~= "" then
      if n % count == id then
        tail = tail + 1
        pool[tail] = line
      end
      n = n + 1
    end
  end
  file:close()
  pattern = args[3]
  if pattern then
    before, after = string.match(args[4], "^(.-)%%s(.*)$")
    assert(before, "the next body needs a %s for the captured value")
  end
  statuses, starved = {}, 0
  -- wrk calls request() once on thread 0 to check the request, and never sends it.
  verifying = id == 0
end

local function post(body)
  return wrk.format("POST", nil, nil, body)
end

function request()
  if head > tail then
    starved = starved + 1
    return post("{}")
  end
  local body = pool[head]
  if verifying then
    verifying = false
    return post(body)
  end
  pool[head] = nil
  head = head + 1
  if not pattern then
    tail = tail + 1
    pool[tail] = body
  end
  return post(body)
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if pattern and status == 200 then
    local value = string.match(body, pattern)
    if value then
      tail = tail + 1
      pool[tail] = before .. value .. after
    end
  end
end

function done(summary, latency, requests)
  local total, lost = {}, 0
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + n
    end
    lost = lost + thread:get("starved")
  end
  for status, n in pairs(total) do
    io.write(string.format("status %d %d\n", status, n))
  end
  io.write(string.format("starved %d\n", lost))
end
