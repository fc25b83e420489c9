// The system's zlib (Debian's zlib1g-dev), for scheduling's zip reader: inflate fed exactly the
// bytes it has, which ZIPFoundation's binding does not do.
#include <zlib.h>
