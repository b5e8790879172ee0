// libdeflate (Debian: libdeflate-dev), for IngestBench's inflate reference only: the collector inflates with zlib.
#include <libdeflate.h>
