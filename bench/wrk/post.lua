-- wrk script: POST a JSON body. Settings come from the environment (bench/lib/wrk.ts sets them):
--   BENCH_METHOD      GET or POST (default POST; a GET sends no body)
--   BENCH_BODY_FILE   the body; when it contains __BENCH_PROMPT__, every request gets a fresh prompt there
--   BENCH_SENTENCES   JSON-escaped sentences, one per line, that fresh prompts are drawn from
--   BENCH_PER_PROMPT  sentences per fresh prompt
--   BENCH_HEADERS     extra request headers, "name: value" separated by newlines
--   BENCH_COUNT_HITS  when "1", count responses whose body says "cache_hit":true and keep the first non-2xx answer
-- At the end it prints one line "BENCHJSON {...}" with exact percentiles in microseconds.

local SLOT = "__BENCH_PROMPT__"

local function read_file(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

local body = read_file(os.getenv("BENCH_BODY_FILE"))
local slot_at = body:find(SLOT, 1, true)
local before, after
if slot_at then
  before = body:sub(1, slot_at - 1)
  after = body:sub(slot_at + #SLOT)
end

wrk.method = os.getenv("BENCH_METHOD") or "POST"
if wrk.method ~= "GET" then wrk.body = body end
wrk.headers["Content-Type"] = "application/json"
for name, value in (os.getenv("BENCH_HEADERS") or ""):gmatch("([^:\n]+):%s*([^\n]*)") do
  wrk.headers[name] = value
end

local count_hits = os.getenv("BENCH_COUNT_HITS") == "1"
local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("thread_id", thread_count)
  table.insert(threads, thread)
end

local sentences = {}
local per_prompt = tonumber(os.getenv("BENCH_PER_PROMPT") or "1")
local counter = 0
hits = 0
responses = 0
first_error = ""

function init(args)
  if slot_at then
    for line in io.lines(os.getenv("BENCH_SENTENCES")) do
      if #line > 0 then table.insert(sentences, line) end
    end
    math.randomseed(os.time() * 1000 + (thread_id or 0))
  end
end

function request()
  if not slot_at then
    return wrk.format()
  end
  counter = counter + 1
  local parts = { "Request ", tostring(thread_id or 0), "-", tostring(counter), "-", tostring(math.random(1, 1000000000)), "." }
  for _ = 1, per_prompt do
    parts[#parts + 1] = " "
    parts[#parts + 1] = sentences[math.random(1, #sentences)]
  end
  return wrk.format(nil, nil, nil, before .. table.concat(parts) .. after)
end

if count_hits then
  function response(status, headers, resp_body)
    responses = responses + 1
    if resp_body and resp_body:find('"cache_hit":true', 1, true) then hits = hits + 1 end
    if status >= 300 and first_error == "" then
      first_error = tostring(status) .. " " .. (resp_body or ""):sub(1, 160):gsub('[%c"\\]', " ")
    end
  end
end

function done(summary, latency, requests)
  local total_hits, total_responses, error_sample = 0, 0, ""
  for _, thread in ipairs(threads) do
    total_hits = total_hits + (thread:get("hits") or 0)
    total_responses = total_responses + (thread:get("responses") or 0)
    if error_sample == "" then error_sample = thread:get("first_error") or "" end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCHJSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f},"counted":%s,"cache_hits":%d,"responses":%d,"error_sample":"%s"}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max, latency.mean,
    tostring(count_hits), total_hits, total_responses, error_sample))
end
