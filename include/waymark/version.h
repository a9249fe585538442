/* waymark's version, for C and C++ (waymark.h, the C API, includes it). CMakeLists.txt's
   project(VERSION) must agree with these: configuring fails when it does not. The library
   built says its own at run time: wm_version() in C, waymark::version() in C++ (core/version.hpp);
   a program compares them with the header it was compiled against. */
#ifndef WAYMARK_VERSION_H
#define WAYMARK_VERSION_H

#define WAYMARK_VERSION_MAJOR 0
#define WAYMARK_VERSION_MINOR 1
#define WAYMARK_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH" */
#define WAYMARK_VERSION_STRING "0.1.0"
/* One number that grows with every release: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define WAYMARK_VERSION_NUMBER (WAYMARK_VERSION_MAJOR * 10000 + WAYMARK_VERSION_MINOR * 100 + WAYMARK_VERSION_PATCH)

#endif /* WAYMARK_VERSION_H */
