-- wrk script of the web benchmarks (bench/server.py): the requests are read from the file
-- $REQUESTS, one a line, tab-separated: method, path, Cookie, If-None-Match, body, one more
-- header as "Name: value" (an empty field is left out). Thread i of $WRK_THREADS sends lines i, i + n, i + 2n … and starts again at the
-- end; with $FRESH set (lines that may be sent only once: each needs a table of its own), a thread
-- that has sent all its lines stops instead, so a run never sends a line twice, and done() says
-- "ran out" (the rate is then a lower bound: wrk divides by the whole duration).
-- Every response's status is counted; done() prints "status <code>: <count>" lines.
-- Every request says "Connection: close", as a phone's entries and page loads come: each on a new
-- connection (a phone's only open one is its page's stream, and gunicorn closes an idle connection
-- after 2 s, well before the next tap). The true bare route is asked the same way.
local requests = {}

-- Each thread formats its requests once, in init(), when wrk.headers holds the Host header.
function init(args)
  for line in io.lines(os.getenv("REQUESTS")) do
    local f = {}
    for value in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = value end
    local headers = {}
    if f[3] ~= "" then headers["Cookie"] = f[3] end
    if f[4] ~= "" then headers["If-None-Match"] = f[4] end
    local name, value = (f[6] or ""):match("^([^:]+): (.*)$")
    if name then headers[name] = value end
    headers["Connection"] = "close"
    local body = nil
    if f[5] ~= "" then
      body = f[5]
      headers["Content-Type"] = "application/x-www-form-urlencoded"
    end
    requests[#requests + 1] = wrk.format(f[1], f[2], headers, body)
  end
end

local threads = {}
function setup(thread)
  thread:set("first", #threads)
  threads[#threads + 1] = thread
end

-- Before the threads start, wrk calls thread 0's request() once to see how many requests it
-- returns, and never sends that one: thread 0 hands it a line without counting it as sent, so
-- its first real request is its first line (a figure that sends a table's cards in order would
-- otherwise lose the first card and see every later one refused).
local step = tonumber(os.getenv("WRK_THREADS"))
local fresh = os.getenv("FRESH") ~= nil
local n = 0
local checked = false
ran_out = 0
function request()
  if first == 0 and not checked then
    checked = true
    return requests[1]
  end
  local position = first + n * step
  if fresh and position >= #requests then
    -- All this thread's lines are sent: stop it. The request returned here may still be
    -- written before the thread's loop ends, so it is a harmless one (the bare route).
    ran_out = 1
    wrk.thread:stop()
    return wrk.format("GET", "/bare")
  end
  n = n + 1
  return requests[position % #requests + 1]
end

statuses = {}
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  local out = 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
    out = out + (thread:get("ran_out") or 0)
  end
  if out > 0 then io.write("ran out\n") end
  for status, count in pairs(total) do
    io.write(string.format("status %d: %d\n", status, count))
  end
end
