-- wrk script: each request records the first bid of a different table (ids in $BID_IDS).
local ids = {}
for line in io.lines(os.getenv("BID_IDS")) do ids[#ids + 1] = line end
local threads = 0
function setup(thread)
  thread:set("first", threads)
  threads = threads + 1
end
local n = 0
function request()
  local index = first + n * tonumber(os.getenv("WRK_THREADS")) + 1
  n = n + 1
  local body = "seq=1&round=1&action=bid&player=2&bid=0&csrf_token=" .. os.getenv("CSRF")
  return wrk.format("POST", "/t/" .. ids[index] .. "/entry", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = os.getenv("COOKIE"),
  }, body)
end
