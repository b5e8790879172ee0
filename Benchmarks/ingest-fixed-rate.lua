-- wrk script: the batches of ingest.lua sent at a fixed rate, whatever the answers' timing. Arguments:
-- DIR COUNT THREADS RATE (requests per second, all threads together).
--
-- Each thread sends on its own schedule of evenly spaced times, the threads' schedules interleaved, and each
-- request takes the next time of its thread's schedule, whichever connection is free to send it. A
-- connection that merely paused between requests would fire again together with the others answered by
-- the same group commit, so the load would come in bursts of dozens of batches however low the rate. When
-- the collector falls behind, the requests due go at once, and wrk times each from when it went, not from
-- when it was due: so the script counts the requests that went late, and by how much at most, and prints
-- them at the end. Many late requests mean the latency above leaves out their wait.
dofile("ingest.lua")

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } dw_timespec;
  int clock_gettime(int clock, dw_timespec *time);
]]
local timespec = ffi.new("dw_timespec")

local function milliseconds()
  ffi.C.clock_gettime(1, timespec) -- CLOCK_MONOTONIC
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

local batches_init = init

function init(args)
  batches_init(args)
  local nthreads = tonumber(args[3])
  interval = 1000 * nthreads / tonumber(args[4])
  -- Every thread's times lie on one grid of the monotonic clock, thread `id` `id` / `nthreads` of an interval
  -- after thread 0, however long each thread took to read its batches.
  due = (math.floor(milliseconds() / interval) + 1 + id / nthreads) * interval
end

late, latest = 0, 0

function delay()
  local wait = due - milliseconds()
  due = due + interval
  if wait < 0 then
    late = late + 1
    latest = math.max(latest, -wait)
    return 0
  end
  return wait
end

function done(summary, latency, requests)
  local count, most = 0, 0
  for _, thread in ipairs(threads) do
    count = count + thread:get("late")
    most = math.max(most, thread:get("latest"))
  end
  io.write(string.format("Sent late: %d of %d requests, at most %.1f ms after their time\n", count,
    summary.requests, most))
end
