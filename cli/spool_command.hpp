// `clref check-spool DIR [--report FILE]`: judges every case of a check layer spool (CLREF_CHECK_SPOOL=DIR,
// layer/spool.hpp) and writes the JSON lines the layer would have written to CLREF_CHECK_REPORT judging at once: the
// same fields, one line per enqueue, in enqueue order; on stdout the layer's summary line of each. Under
// `mpirun -n N` the cases are spread over the ranks (cluster.hpp: the largest first, each to the next free rank) and
// rank 0 writes the report, the same as one process's.
// Exit status: 0 no violation, 1 at least one violation, 2 bad input (no spool at DIR).
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace clref::cli {

struct CheckSpoolOptions {
  std::string dir;
  std::string reportPath;
};

CLI::App* addCheckSpoolCommand(CLI::App& app, CheckSpoolOptions& options);
int checkSpoolCommand(const CheckSpoolOptions& options);

}  // namespace clref::cli
