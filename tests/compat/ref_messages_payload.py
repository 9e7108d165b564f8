"""Prints AIPerf 0.13's own `messages` request bodies and headers for the turns that
tests/common/endpoints/messages_raw_test.cpp checks ours against (the expected strings there
were recorded from this script). Run with the reference's interpreter:
~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/compat/ref_messages_payload.py"""
import json, sys
from aiperf.common.models import Turn, RequestInfo, Text, Image
from aiperf.common.models.model_endpoint_info import ModelEndpointInfo, EndpointInfo, ModelListInfo, ModelInfo
from aiperf.endpoints.anthropic_messages import MessagesEndpoint
def me(streaming, extra=None):
    return ModelEndpointInfo(models=ModelListInfo(models=[ModelInfo(name="m1")], model_selection_strategy="round_robin"),
        endpoint=EndpointInfo(type="messages", streaming=streaming, extra=extra or [], api_key="k1", headers=[]))
def show(name, mep, turns, system=None, ctx=None):
    ep = MessagesEndpoint(model_endpoint=mep)
    ri = RequestInfo(model_endpoint=mep, turns=turns, system_message=system, user_context_message=ctx, turn_index=len(turns)-1, credit_num=0, credit_phase="profiling", x_request_id="x", x_correlation_id="y", conversation_id="c")
    print(name, json.dumps(ep.format_payload(ri), separators=(",",":")))
    print(name+"_headers", json.dumps(ep.get_endpoint_headers(ri)))
t1 = Turn(texts=[Text(name="text", contents=["hello world"])], max_tokens=50)
show("single", me(False), [t1])
show("stream_sys_ctx", me(True, [("temperature",0.5),("max_tokens",7)]), [t1], system="be brief", ctx="ctx here")
t0 = Turn(texts=[Text(contents=["q1"])])
ta = Turn(role="assistant", texts=[Text(contents=["a1"])])
t2 = Turn(texts=[Text(contents=["q2","q3"])], images=[Image(contents=["data:image/jpeg;base64,AAAA","http://x/y.png"])])
show("multi", me(False), [t0, ta, t2])
