-- wrk -s chat_stream.lua: streaming chat completions, 100 SSE token chunks per request.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"gpt2","stream":true,"messages":[{"role":"user","content":"' ..
           string.rep("lorem ipsum dolor sit amet ", 15) .. '"}],"max_completion_tokens":100,"ignore_eos":true}'
