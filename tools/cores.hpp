// How many cores -T0 gives workers: logical (every hardware thread the
// system runs) or physical (cores, a core's hyperthreads counted once, as
// zstd's default).
#pragma once

namespace zest::cli {

/// Hardware threads online (1 at least).
unsigned logical_cores();
/// Distinct (package, core) pairs of the online CPUs, from sysfs; the
/// logical count where the topology cannot be read.
unsigned physical_cores();

}  // namespace zest::cli
