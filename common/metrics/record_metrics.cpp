#include "metrics/record_metrics.h"

#include <optional>
#include <vector>

#include "metrics/metric_registry.h"

namespace aiperf::metrics {
namespace {

// Which record metrics apply depends on the context alone, which is fixed for a run: worked
// out when the context changes, not for every record (it walks the whole registry).
const std::vector<const MetricDescriptor*>& record_metrics_for(const MetricContext& ctx) {
  thread_local std::optional<MetricContext> cached_ctx;
  thread_local std::vector<const MetricDescriptor*> cached;
  if (!cached_ctx || !(*cached_ctx == ctx)) {
    cached.clear();
    for (const MetricDescriptor* m : builtin_metrics().applicable(ctx)) {
      if (m->kind == MetricKind::kRecord) cached.push_back(m);
    }
    cached_ctx = ctx;
  }
  return cached;
}

}  // namespace

void compute_record_metrics(const ParsedRecord& r, const MetricContext& ctx,
                            google::protobuf::RepeatedPtrField<proto::MetricValue>* out) {
  RecordValues values;
  for (const MetricDescriptor* m : record_metrics_for(ctx)) {
    if (has_flags(m->flags, flags::kErrorOnly) == r.valid()) continue;
    if (m->is_list()) {
      std::vector<double> list = m->list(r, values);
      if (list.empty()) continue;
      proto::MetricValue* mv = out->Add();
      mv->set_tag(std::string(m->tag));
      mv->set_is_list(true);
      mv->mutable_values()->Add(list.begin(), list.end());
      continue;
    }
    std::optional<double> value = m->record(r, values);
    if (!value) continue;
    values.set(m->tag, *value);
    proto::MetricValue* mv = out->Add();
    mv->set_tag(std::string(m->tag));
    mv->set_value(*value);
  }
}

}  // namespace aiperf::metrics
