#ifndef TICK_CLZ4_SHIM_H
#define TICK_CLZ4_SHIM_H

#include <lz4.h>

#endif
