// What a plot shows, independent of how it is drawn: the PNG renderer (cairo) and the HTML
// report both draw these, so a figure is built once from a run's files and looks the same in
// both. Builders fill it from the artifact files; renderers never read files.
#pragma once
#include <string>
#include <vector>

namespace aiperf::plot {

enum class Mark {
  Points,  // one marker per (x, y)
  Line,    // a polyline through the points in order
  Step,    // a horizontal-then-vertical line (values that hold until the next sample)
  Area,    // a line with the area down to y = 0 filled
  Spans,   // for point i, a horizontal bar from x[i] to x_end[i] at height y[i] (timelines)
  Box,     // a box plot of y: the box (`box`) at x in [c - 0.25, c + 0.25] (c = the series'
           // position in the figure), each value a marker at (x[i], y[i]) beside it
  Cells,   // a 2-D histogram: cell i spans [x[i], x_end[i]] x [y[i], y_end[i]], coloured by z[i]
};

struct Series {
  std::string name;  // legend entry; empty = not in the legend
  Mark mark = Mark::Line;
  std::vector<double> x, y;
  std::vector<double> x_end;          // Spans and Cells, same length as x
  std::vector<double> y_end, z;       // Cells only, same length as x
  std::vector<double> box;            // Box only: {lower whisker, q1, median, q3, upper whisker}
  std::vector<double> y_low, y_high;  // optional error bars (e.g. a confidence interval), same length as y
  std::vector<double> x_low, x_high;  // optional horizontal error bars, same length as x
  std::vector<std::string> labels;    // optional text next to each point (e.g. "c=4"), same length as x
  bool secondary_axis = false;        // drawn against the right-hand y axis (Figure::y2)
  int color = -1;                     // palette index; -1 = the series' position in the figure
};

struct Axis {
  std::string label;  // with its unit, e.g. "Time to First Token (ms)"
  bool log = false;
  bool from_zero = false;  // the range reaches down to 0 (AIPerf's default autoscale "none")
  bool hide_ticks = false;  // no tick labels (a box plot's category axis)
};

struct Figure {
  std::string id;  // file stem, AIPerf's plot name: "ttft_over_time" -> ttft_over_time.png
  std::string title;
  Axis x, y, y2;  // y2 is used only when a series has secondary_axis
  std::vector<Series> series;
  std::string note;  // one line under the plot (e.g. how a Pareto frontier is drawn); may be empty
};

// A table of a report (the console summary of a run, a sweep's per-point rows): cells are
// already formatted text, so every renderer shows the numbers the console shows.
struct Table {
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;     // paragraphs under the table (how to read it)
  std::vector<std::string> warnings;  // paragraphs under the table, shown as warnings
};

// Everything one report shows: a run's or a campaign's tables and figures, in order.
struct Report {
  std::string title;
  std::vector<std::string> notes;  // one line each: command, model, date, what was skipped and why
  std::vector<Table> tables;
  std::vector<Figure> figures;
};

}  // namespace aiperf::plot
