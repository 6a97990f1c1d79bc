/*===- autoac/export.h - symbol visibility of the public C API -*- C -*-===*
 *
 * libautoac is compiled with hidden visibility (-fvisibility=hidden): only
 * declarations marked AUTOAC_API are exported from libautoac.so (and from
 * the mlir-opt plugin, which also exports mlirGetPassPluginInfo).  Everything
 * else is internal and reachable only by linking the static library, as the
 * project's own tools and tests do.  A ctest (`exported_symbols`) checks that
 * the shared library exports nothing but `ac*` names.
 *===----------------------------------------------------------------------===*/
#ifndef AUTOAC_EXPORT_H
#define AUTOAC_EXPORT_H

/// Marks a declaration of the public C API: exported from libautoac.so.
#if defined(_WIN32) || defined(__CYGWIN__)
#define AUTOAC_API
#elif defined(__GNUC__) || defined(__clang__)
#define AUTOAC_API __attribute__((visibility("default")))
#else
#define AUTOAC_API
#endif

#endif
