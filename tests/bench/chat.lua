-- wrk script: POST one chat completion request (body from the environment), as aiperf sends it.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("WRK_BODY")
