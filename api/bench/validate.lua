-- wrk script: POST the 150-ply corpus record to /v1/validate.
local f = assert(io.open(os.getenv("ANQI_BENCH_BODY") or "api/bench/validate-150.json", "r"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"

-- Count answers other than 200 (wrk only counts non-2xx/3xx and socket errors).
function response(status, headers, body)
  if status ~= 200 then
    io.stderr:write("unexpected status " .. status .. "\n")
  end
end
