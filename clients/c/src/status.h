/* Internal: filling a binario_status. */
#ifndef BINARIO_STATUS_INTERNAL_H
#define BINARIO_STATUS_INTERNAL_H

#include "binario/client.h"

#include <stdarg.h>

/* binario_status_set with a va_list. */
int binario_status_vset(binario_status *status, int code, const char *format, va_list arguments);

/* Makes `status` a deep copy of `source` (the code alone if memory runs out); returns the code. */
int binario_status_copy(binario_status *status, const binario_status *source);

#endif
