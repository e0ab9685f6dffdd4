#ifndef TICK_CZSTD_SHIM_H
#define TICK_CZSTD_SHIM_H

#include <zstd.h>

#endif
