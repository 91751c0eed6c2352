-- wrk script of api/bench/referee.sh: committed plays to the referee. Each thread takes its
-- share of the dealt games (games.lua, written by the script) and plays them round-robin, one
-- ply per request: a flip of square k at ply k, by the seat whose turn it is (Banqi's seats
-- alternate). A game's next ply is sent only after every other game of the thread had one, so
-- it never overtakes the ply before it.
local squares = {}
for rank = 1, 8 do
  for _, file in ipairs({"a", "b", "c", "d"}) do
    squares[#squares + 1] = file .. rank
  end
end

local threads = {}
local counter = 0

function setup(thread)
  thread:set("index", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  dofile(os.getenv("ANQI_BENCH_GAMES"))
  local count = tonumber(os.getenv("ANQI_BENCH_THREADS"))
  mine = {}
  for i = index + 1, #games, count do
    mine[#mine + 1] = games[i]
  end
  n = 0
  failed = 0
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local game = mine[(n % #mine) + 1]
  local ply = math.floor(n / #mine)
  n = n + 1
  if ply >= 32 then
    -- Every flip of every game played: nothing left to commit.
    ply = 31
  end
  local token = game[2 + (ply % 2)]
  local body = string.format(
    '{"game":"banqi","game_id":"%s","token":"%s","action":"%s","ply":%d}',
    game[1], token, squares[ply + 1], ply)
  return wrk.format("POST", "/v1/play", nil, body)
end

function response(status, headers, body)
  if status ~= 200 then
    failed = failed + 1
    if failed <= 3 then
      io.stderr:write(status .. " " .. body .. "\n")
    end
  end
end

function done(summary, latency, requests)
  local failed_total = 0
  for _, t in ipairs(threads) do
    failed_total = failed_total + t:get("failed")
  end
  io.write(string.format("committed plays: %d (%d not 200), %.0f/s; p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    summary.requests - failed_total, failed_total,
    (summary.requests - failed_total) / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
