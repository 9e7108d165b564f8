// Session's handling of the video job routes (video_api.h): every answer is immediate; a job's
// progress follows the number of polls, not time, so tests script it exactly.
#include "session.h"

namespace aiperf::mock {

void Session::handle_video() {
  const auto& request = parser_->get();
  const std::string_view target = request.target();
  const VideoReply reply = route_ == Route::videos
                               ? state_.videos.submit(request[boost::beast::http::field::content_type], request.body())
                               : state_.videos.get(target.substr(0, target.find('?')));
  respond(reply.status, reply.content_type, reply.body);
}

}  // namespace aiperf::mock
