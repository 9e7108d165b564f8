#include "metrics/record_metrics.h"

#include "metrics/metric_registry.h"

namespace aiperf::metrics {

void compute_record_metrics(const ParsedRecord& r, const MetricContext& ctx,
                            google::protobuf::RepeatedPtrField<proto::MetricValue>* out) {
  RecordValues values;
  for (const MetricDescriptor* m : builtin_metrics().applicable(ctx)) {
    if (m->kind != MetricKind::kRecord) continue;
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
