// The mock's video job API (services/mock_server/video_api.h): what a submit answers, how a job
// progresses poll by poll, the failure mode and the content download.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "video_api.h"

using namespace aiperf::mock;
using nlohmann::json;

TEST_CASE("mock videos: a job is queued / in progress for mock_polls polls / then completed", "[video]") {
  VideoJobs jobs;
  const VideoReply submit = jobs.submit("application/json", R"({"prompt":"a cat","size":"64x32","seconds":"8","mock_polls":1})");
  REQUIRE(submit.status == 200);
  const json s = json::parse(submit.body);
  CHECK(s["id"] == "video_1");
  CHECK(s["status"] == "queued");
  CHECK(s["progress"] == 0);
  CHECK(s["size"] == "64x32");
  CHECK(s["seconds"] == "8");
  CHECK(jobs.get("/v1/videos/video_1/content").status == 404);  // not ready
  const json p1 = json::parse(jobs.get("/v1/videos/video_1").body);
  CHECK(p1["status"] == "in_progress");
  CHECK(p1["progress"] == 50);
  CHECK_FALSE(p1.contains("inference_time_s"));
  const json p2 = json::parse(jobs.get("/v1/videos/video_1").body);
  CHECK(p2["status"] == "completed");
  CHECK(p2["progress"] == 100);
  CHECK(p2["inference_time_s"] == 1.0);  // seconds / 8
  CHECK(p2["peak_memory_mb"] == 2.0);    // 64 * 32 / 1024
  const VideoReply video = jobs.get("/v1/videos/video_1/content");
  CHECK(video.status == 200);
  CHECK(video.content_type == "video/mp4");
  CHECK(video.body.size() == 32);
  CHECK(video.body.substr(4, 4) == "ftyp");
}

TEST_CASE("mock videos: defaults / form bodies / failure mode / unknown jobs / bad fields", "[video]") {
  VideoJobs jobs;
  const std::string form =
      "--b\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\nhi\r\n"
      "--b\r\nContent-Disposition: form-data; name=\"mock_fail\"\r\n\r\ntrue\r\n--b--\r\n";
  REQUIRE(jobs.submit("multipart/form-data; boundary=b", form).status == 200);
  for (int i = 0; i < 2; ++i) CHECK(json::parse(jobs.get("/v1/videos/video_1").body)["status"] == "in_progress");
  const json failed = json::parse(jobs.get("/v1/videos/video_1").body);
  CHECK(failed["status"] == "failed");
  CHECK(failed["error"]["message"] == "mock video generation failed");
  CHECK(jobs.get("/v1/videos/video_1/content").status == 404);

  REQUIRE(jobs.submit("application/json", R"({"prompt":"x"})").status == 200);
  jobs.get("/v1/videos/video_2");
  jobs.get("/v1/videos/video_2");
  const json done = json::parse(jobs.get("/v1/videos/video_2").body);
  CHECK(done["status"] == "completed");
  CHECK(done["size"] == "1280x720");
  CHECK(done["inference_time_s"] == 0.5);
  CHECK(done["peak_memory_mb"] == 900.0);

  CHECK(jobs.get("/v1/videos/video_9").status == 404);
  CHECK(jobs.get("/v1/videos/video_2/other").status == 404);
  CHECK(jobs.submit("application/json", R"({"model":"m"})").status == 400);
  CHECK(jobs.submit("application/json", R"({"prompt":"x","size":"big"})").status == 400);
  CHECK(jobs.submit("application/json", R"({"prompt":"x","mock_polls":-1})").status == 400);
  CHECK(jobs.submit("application/json", "[1]").status == 400);
}
