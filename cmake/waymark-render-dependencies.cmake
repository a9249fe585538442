# Included by waymarkConfig.cmake for find_package(waymark COMPONENTS render): the render
# targets link PkgConfig::waymark_cairo, made here with the same call as in waymark's build.
# A failure marks the component not found (find_package(waymark REQUIRED COMPONENTS render)
# then stops with the reason); find_dependency() cannot be used: its return() would leave only
# this file.
if(NOT TARGET PkgConfig::waymark_cairo)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(waymark_cairo QUIET IMPORTED_TARGET cairo)
  endif()
  if(NOT PKG_CONFIG_FOUND)
    set(waymark_render_FOUND FALSE)
    set(_waymark_why "needs pkg-config to find cairo, and there is none")
  elseif(NOT TARGET PkgConfig::waymark_cairo)
    set(waymark_render_FOUND FALSE)
    set(_waymark_why "needs cairo, which pkg-config did not find (Debian: libcairo2-dev; or set PKG_CONFIG_PATH)")
  endif()
endif()
