-- wrk script: POST distinct pre-compressed batches, each thread taking its own slice of the files.
-- Every thread, for a `done` that reads their counters (ingest-fixed-rate.lua).
threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  local dir, total = args[1], tonumber(args[2])
  local nthreads = tonumber(args[3])
  bodies = {}
  for i = id, total - 1, nthreads do
    local f = io.open(string.format("%s/%06d.bin", dir, i), "rb")
    table.insert(bodies, f:read("*a"))
    f:close()
  end
  index = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Content-Encoding"] = "deflate"
end

function request()
  index = index + 1
  if index > #bodies then index = 1 end
  return wrk.format(nil, "/v1/reports", nil, bodies[index])
end
