// Request bodies of the non-OpenAI-chat endpoint types (spec §5.4). Private to the endpoints
// library; build_payload dispatches here and merges --extra-inputs.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset.pb.h"

namespace aiperf::endpoints {

// Every non-empty text content of `turn`, in order.
std::vector<std::string> turn_texts(const proto::Turn& turn);

// embeddings: {"model", "input": [texts]}; nim_embeddings: texts, images, or "<text> <image>"
// pairs when both are present.
nlohmann::ordered_json embeddings_payload(const proto::Turn& turn, const std::string& model, bool nim);

// Rankings read texts named query/queries and passages (other names are ignored):
// nim {"model", "query": {"text"}, "passages": [{"text"}]}; cohere {"model", "query",
// "documents"}; hf_tei {"query", "texts"} (no model).
enum class RankingsFlavor { nim, cohere, hf_tei };
nlohmann::ordered_json rankings_payload(const proto::Turn& turn, const std::string& model, RankingsFlavor flavor);

// huggingface_generate (TGI): {"inputs": texts joined by " ", "parameters": {"max_new_tokens"?}};
// extras go inside "parameters".
nlohmann::ordered_json tgi_generate_payload(const proto::Turn& turn, const nlohmann::json* extra_inputs);

}  // namespace aiperf::endpoints

namespace aiperf::endpoints {

// image_generation: {"prompt": first text, "model", "response_format": "b64_json", "n": 1,
// "stream": true (streaming only)}; extras are merged by the caller.
nlohmann::ordered_json image_generation_payload(const proto::Turn& turn, const std::string& model, bool streaming);

// solido_rag: {"query": [texts], "filters": {"family": "Solido", "tool": "SDE"},
// "inference_model": model}; extras (merged by the caller) may replace "filters".
nlohmann::ordered_json solido_rag_payload(const proto::Turn& turn, const std::string& model);

// generate (GenAI-Perf's Triton generate extension): {"text_input": texts joined by " ",
// "stream": true (streaming only), "max_tokens"?}; extras are merged top level by the caller.
nlohmann::ordered_json triton_generate_payload(const proto::Turn& turn, bool streaming);

// kserve (KServe v2 inference, TensorRT-LLM's inputs as GenAI-Perf sends them): {"inputs": [
// text_input BYTES (texts joined by " "), max_tokens INT32 (the turn's, else 256), stream BOOL
// (streaming only), then one tensor per extra input]}, every tensor of shape [1, 1].
// `vllm`: Triton's vLLM backend (GenAI-Perf's --backend vllm): text_input, exclude_input_in_output
// true, stream when streaming, and the token limit in sampling_parameters, a JSON string
// ({"max_tokens": "N"}, strings as GenAI-Perf writes them; only when the turn has one).
nlohmann::ordered_json kserve_payload(const proto::Turn& turn, bool streaming, const nlohmann::json* extra_inputs,
                                      bool vllm = false);

// responses (OpenAI Responses API, spec §5.5): {"input": [items], "model", "stream",
// "instructions"? (system message), "max_output_tokens"?, "tools"?}. Items are
// {"role", "content": [{"type": "input_text"|"input_image"|"input_audio", ...}]}; assistant
// history uses "output_text" parts, as the API requires.
nlohmann::ordered_json responses_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                                         bool streaming, const std::string& system_message,
                                         const std::string& user_context_message);

// messages (Anthropic Messages API): {"model", "messages", "max_tokens" (the turn's, else 1024),
// "stream": true (streaming only), "system"? (system message), "tools"?}. A user context message
// is a leading user message; images are {"type": "image", "source": base64|url} blocks. Throws
// std::invalid_argument for a turn with audio or video (the API takes neither) or no turn.
nlohmann::ordered_json messages_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                                        bool streaming, const std::string& system_message,
                                        const std::string& user_context_message);

// image_retrieval (NIM): {"input": [{"type": "image_url", "url": content}...]} for every non-empty
// image content of the one turn; extras are merged by the caller. Throws std::invalid_argument
// (AIPerf's ValueError texts) for several turns, no image, or only empty contents.
nlohmann::ordered_json image_retrieval_payload(const std::vector<const proto::Turn*>& turns);

// image_edit: {"prompt": first text, "model", "response_format": "b64_json", "n": 1, then "url"
// (an http(s) image) or "image": {"b64_data", "filename": "image.<ext>", "content_type"} (a data
// URL's or raw base64's bytes, type from the data URL or sniffed: PNG/JPEG/GIF/WebP/BMP)}; extras
// merged last except the endpoint's keys prompt/image/url/mask. Throws std::invalid_argument
// without a prompt or an image, or for an image of unknown type.
nlohmann::ordered_json image_edit_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                                          const nlohmann::json* extra_inputs);

// audio_transcription: {"file": {"b64_data", "filename": "audio.<fmt>", "content_type"}, "model"}
// from the first audio content "<fmt>,<base64>"; extras merged last except "file". Throws
// std::invalid_argument without audio or for content without the "<fmt>," prefix.
nlohmann::ordered_json audio_transcription_payload(const std::vector<const proto::Turn*>& turns,
                                                   const std::string& model, const nlohmann::json* extra_inputs);

// template: renders the extra `payload_template` (a named template, a file path or inline
// Jinja, see jinja_subset.h) with the turn's variables and parses the result; the other
// extras except payload_template/response_field are merged on top. Throws
// std::invalid_argument when payload_template is missing, does not compile or does not
// render a JSON object.
nlohmann::ordered_json template_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                                        bool streaming, const nlohmann::json* extra_inputs);

}  // namespace aiperf::endpoints
