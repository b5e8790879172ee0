-- wrk script: the batches of ingest.lua, each connection pausing PAUSE milliseconds between requests, to
-- hold a fixed rate below the maximum. Arguments: DIR COUNT THREADS PAUSE.
dofile("ingest.lua")

local batches_init = init

function init(args)
  batches_init(args)
  pause = tonumber(args[4])
end

function delay()
  return pause
end
