-- wrk script of api/bench/soak.sh: cycles through a mix of the service's requests (every game),
-- each new store write a distinct record (the thread's id and a counter in its metadata).
local token = os.getenv("ANQI_SOAK_TOKEN") or ""
local validate = io.open("api/bench/validate-150.json"):read("*a")
local json = { ["Content-Type"] = "application/json" }
local auth = { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token }
local mix = {
  { "POST", "/v1/validate", json, validate },
  { "POST", "/v1/actions", json, '{"game":"luzhanqi","preset":"open","position":"5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40"}' },
  { "POST", "/v1/play", json, '{"game":"xiangqi-3g","preset":"xiangqi","position":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1","action":"h2e2"}' },
  { "POST", "/v1/view", json, '{"player":"player1","position":"k3/4/4/4/4/4/1p2/P2X r C1 5 30"}' },
  { "POST", "/v1/render", json, '{"game":"luzhanqi","position":"5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40"}' },
  { "GET", "/v1/games?limit=10", {}, nil },
  { "POST", "/v1/games", auth, nil },
}
-- ANQI_SOAK_WRITES=0: the mix without store writes (what the stateless requests and store
-- reads alone give).
if os.getenv("ANQI_SOAK_WRITES") == "0" then
  table.remove(mix)
end
local n = 0
local thread_id = math.random(1, 1000000000)
request = function()
  n = n + 1
  local r = mix[(n % #mix) + 1]
  local body = r[4]
  if r[2] == "/v1/games" and r[1] == "POST" then
    body = string.format('{"actions":["b8(G)","a1(k)"],"metadata":{"soak":"%d-%d"}}', thread_id, n)
  end
  return wrk.format(r[1], r[2], r[3], body)
end
