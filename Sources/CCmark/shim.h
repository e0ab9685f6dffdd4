#ifndef TICK_CCMARK_SHIM_H
#define TICK_CCMARK_SHIM_H

#include <cmark.h>

#endif
