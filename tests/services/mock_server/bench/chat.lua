-- wrk -s chat.lua: non-streaming chat completions (about 100 prompt and 100 output tokens).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"gpt2","messages":[{"role":"user","content":"' .. string.rep("lorem ipsum dolor sit amet ", 15) ..
           '"}],"max_completion_tokens":100,"ignore_eos":true}'
