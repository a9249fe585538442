# Included by waymarkConfig.cmake for find_package(waymark COMPONENTS recast): the recast
# target links Recast by name (Debian's librecast-dev has no CMake or pkg-config files), so the
# library must be where the linker looks. A failure marks the component not found.
find_library(_waymark_recast_library Recast)
if(NOT _waymark_recast_library)
  set(waymark_recast_FOUND FALSE)
  set(_waymark_why "needs the Recast library, which was not found (Debian: librecast-dev)")
endif()
unset(_waymark_recast_library CACHE)
