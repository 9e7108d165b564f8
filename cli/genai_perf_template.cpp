#include "genai_perf_template.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace aiperf::cli::genai_perf {
namespace {

// GenAI-Perf 0.0.16's `create-template` file, byte for byte (two-space indent under an empty
// top level, trailing blanks after empty values, Python's spelling of booleans and of the
// stimulus dict). Every value is GenAI-Perf's default, which is also what `genai-perf config`
// assumes for an absent key; where our front end differs (endpoint type kserve, the DCGM
// metrics URL, checkpointing, plots) the value is kept as GenAI-Perf writes it and `config`
// refuses it only when changed from this default (docs/user-guide.md, "Coming from GenAI-Perf").
const char* const kPlain = R"TPL(  model_names: 

  analyze:
    # Uncomment the lines below to enable the analyze subcommand
    # # For further details see analyze.md
    #   concurrency:
    #     start: 1
    #     stop: 1024

  endpoint:
    model_selection_strategy: round_robin
    backend: tensorrtllm
    custom: 
    type: kserve
    streaming: False
    server_metrics_urls: http://localhost:9400/metrics
    url: localhost:8001
    grpc_method: 

  perf_analyzer:
    path: perf_analyzer
    verbose: False
    stimulus: {'concurrency': 1}
    stability_percentage: 999
    warmup_request_count: 0

    measurement:
      mode: request_count
      # If left unset, the default value will be inferred based on the mode.
      num: 

  input:
    batch_size: 1
    extra: 
    goodput: 
    header: 
    file: 
    num_dataset_entries: 100
    random_seed: 0

    audio:
      batch_size: 1
      format: wav
      depths: 16
      sample_rates: 16
      num_channels: 1

      length:
        mean: 0
        stddev: 0

    image:
      batch_size: 1
      format: png

      width:
        mean: 0
        stddev: 0

      height:
        mean: 0
        stddev: 0

    output_tokens:
      mean: 
      deterministic: False
      stddev: 0

    synthetic_tokens:
      mean: 550
      stddev: 0

    prefix_prompt:
      num: 0
      length: 100

    sessions:
      num: 0

      turns:
        mean: 1
        stddev: 0

      turn_delay:
        mean: 0
        ratio: 1.0
        stddev: 0

  output:
    artifact_directory: artifacts
    checkpoint_directory: checkpoint
    profile_export_file: profile_export.json
    generate_plots: False
    enable_checkpointing: False

  tokenizer:
    # By default this is the model's name
    name: 
    revision: main
    trust_remote_code: False

  process:
    # Uncomment the lines below to enable the process-export-files subcommand
    #   input_path: 

)TPL";

// The same with `-v/--verbose`: every key's help text as a comment above it.
const char* const kVerbose = R"TPL(  # The name of the model(s) to benchmark.
  model_names: 


  analyze:
    # Uncomment the lines below to enable the analyze subcommand
    # # For further details see analyze.md
    #   concurrency:
    #     start: 1
    #     stop: 1024

  endpoint:
    # When multiple model are specified, this is how a specific model should be assigned to a prompt.            
    # round_robin: nth prompt in the list gets assigned to n-mod len(models).            
    # random: assignment is uniformly random
    model_selection_strategy: round_robin

    # When benchmarking Triton, this is the backend of the model.
    backend: tensorrtllm

    # Set a custom endpoint that differs from the OpenAI defaults.
    custom: 

    # The type to send requests to on the server.
    type: kserve

    # An option to enable the use of the streaming API.
    streaming: False

    # The list of Triton server metrics URLs.                
    # These are used for Telemetry metric reporting with Triton.
    server_metrics_urls: http://localhost:9400/metrics

    # URL of the endpoint to target for benchmarking.
    url: localhost:8001

    # A fully-qualified gRPC method name in '<package>.<service>/<method>' format.
    # The option is only supported by dynamic gRPC service kind and is
    # required to identify the RPC to use when sending requests to the server.
    grpc_method: 


  perf_analyzer:
    # Path to Perf Analyzer binary
    path: perf_analyzer

    # Enables verbose output from Perf Analyzer
    verbose: False

    # The type and value of stimulus to benchmark
    stimulus: {'concurrency': 1}

    # The allowed variation in latency measurements when determining if a result is stable.            
    # The measurement is considered as stable if the ratio of max / min            
    # from the recent 3 measurements is within (stability percentage)            
    # in terms of both infer per second and latency.
    stability_percentage: 999

    # The number of warmup requests to send before benchmarking.
    warmup_request_count: 0


    measurement:
      # The mode of measurement to use in PA: request_count or interval
      mode: request_count

      # The number to use for measurement. By default, this will be inferred based on the mode.
      num: 


  input:
    # The batch size of text requests GenAI-Perf should send.            
    # This is currently supported with the embeddings and rankings endpoint types
    batch_size: 1

    # Provide additional inputs to include with every request.                
    # Inputs should be in an 'input_name:value' format.
    extra: 

    # An option to provide constraints in order to compute goodput.                
    # Specify goodput constraints as 'key:value' pairs,                
    # where the key is a valid metric name, and the value is a number representing                
    # either milliseconds or a throughput value per second.                
    # For example:                
    #   request_latency:300                
    #   output_token_throughput_per_user:600
    goodput: 

    # Adds a custom header to the requests.                
    # Headers must be specified as 'Header:Value' pairs.
    header: 

    # The file or directory containing the content to use for profiling.                
    # Example:                
    #   text: "Your prompt here"                
    # 
    # To use synthetic files for a converter that needs multiple files,                
    # prefix the path with 'synthetic:' followed by a comma-separated list of file names.                
    # The synthetic filenames should not have extensions.                
    # Example:                
    #   synthetic: queries,passages
    file: 

    # The number of unique payloads to sample from.                
    # These will be reused until benchmarking is complete.
    num_dataset_entries: 100

    # The seed used to generate random values.
    random_seed: 0


    audio:
      # The audio batch size of the requests GenAI-Perf should send.                
      # This is currently supported with the OpenAI `multimodal` endpoint type.
      batch_size: 1

      # The audio format of the audio files (wav or mp3).
      format: wav

      # A list of audio bit depths to randomly select from in bits.
      depths: 16

      # A list of audio sample rates to randomly select from in kHz.
      sample_rates: 16

      # The number of audio channels to use for the audio data generation.
      num_channels: 1


      length:
        # The mean length of the audio in seconds.
        mean: 0

        # The standard deviation of the length of the audio in seconds.
        stddev: 0


    image:
      # The image batch size of the requests GenAI-Perf should send.                
      # This is currently supported with the image retrieval endpoint type.
      batch_size: 1

      # The compression format of the images.
      format: png


      width:
        # The mean width of the images when generating synthetic image data.
        mean: 0

        # The standard deviation of width of images when generating synthetic image data.
        stddev: 0


      height:
        # The mean height of images when generating synthetic image data.
        mean: 0

        # The standard deviation of height of images when generating synthetic image data.
        stddev: 0


    output_tokens:
      # The mean number of tokens in each output.
      mean: 

      # This can be set to improve the precision of the mean by setting the            
      # minimum number of tokens equal to the requested number of tokens.            
      # This is currently supported with Triton.
      deterministic: False

      # The standard deviation of the number of tokens in each output.
      stddev: 0


    synthetic_tokens:
      # The mean of number of tokens in the generated prompts when using synthetic data.
      mean: 550

      # The standard deviation of number of tokens in the generated prompts when using synthetic data.
      stddev: 0


    prefix_prompt:
      # The number of prefix prompts to select from.            
      # If this value is not zero, these are prompts that are prepended to input prompts.            
      # This is useful for benchmarking models that use a K-V cache.
      num: 0

      # The number of tokens in each prefix prompt.            
      # This is only used if "num" is greater than zero.            
      # Note that due to the prefix and user prompts being concatenated,            
      # the number of tokens in the final prompt may be off by one.
      length: 100


    sessions:
      # The number of sessions to simulate
      num: 0


      turns:
        # The mean number of turns in a session
        mean: 1

        # The standard deviation of the number of turns in a session
        stddev: 0


      turn_delay:
        # The mean delay (in ms) between turns in a session
        mean: 0

        # A ratio to scale multi-turn delays when using a payload file
        ratio: 1.0

        # The standard deviation (in ms) of the delay between turns in a session
        stddev: 0


  output:
    # The directory to store all the (output) artifacts generated by                    
    # GenAI-Perf and Perf Analyzer.
    artifact_directory: artifacts

    # The directory to store/restore the checkpoint generated by GenAI-Perf.
    checkpoint_directory: checkpoint

    # The path where Perf Analyzer profiling data will be exported.                
    # By default, the profile export will be to profile_export.json.                
    # By default, the GenAI-Perf export will be to <profile_export_file>_genai_perf.csv
    profile_export_file: profile_export.json

    # Enables the generation of plots
    generate_plots: False

    # Enables the checkpointing of the GenAI-Perf state.                
    # This is useful for running GenAI-Perf in a stateful manner.
    enable_checkpointing: False


  tokenizer:
    # The HuggingFace tokenizer to use to interpret token metrics                
    # from prompts and responses. The value can be the                
    # name of a tokenizer or the filepath of the tokenizer.                
    # The default value is the model name.
    name: 

    # The specific model version to use.                                    
    # It can be a branch name, tag name, or commit ID.
    revision: main

    # Allows custom tokenizer to be downloaded and executed.                
    # This carries security risks and should only be used for repositories you trust.                
    # This is only necessary for custom tokenizers stored in HuggingFace Hub.
    trust_remote_code: False


  process:
    # Uncomment the lines below to enable the process-export-files subcommand
    #   input_path: 

)TPL";

}  // namespace

std::string config_template(bool verbose) { return verbose ? kVerbose : kPlain; }

std::string write_template(const std::string& path, bool verbose) {
  // Exclusive create: an existing file is never overwritten (GenAI-Perf opens with "x").
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return "File '" + path + "' already exists. Please specify a different filename.";
    return "cannot create '" + path + "': " + std::strerror(errno);
  }
  const std::string text = config_template(verbose);
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      close(fd);
      unlink(path.c_str());
      return "cannot write '" + path + "': " + why;
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) return "cannot write '" + path + "': " + std::strerror(errno);
  return "";
}

}  // namespace aiperf::cli::genai_perf
