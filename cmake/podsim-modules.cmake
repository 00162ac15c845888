# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# The podsim modules and their order, from the module directories themselves: a module is a
# directory under src/ with a CMakeLists.txt, and it depends on the modules whose ${lib<name>}
# variable its CMakeLists.txt names. In an ns-3 source tree ns-3 finds them the same way
# (contrib/ subdirectories; filter_libraries() in build-support/macros-and-definitions.cmake
# scans for the same tokens), so nothing lists the modules or their files twice.

include_guard(GLOBAL)

# podsim_modules_in_dependency_order(SRC_DIR OUT_VAR): OUT_VAR gets the module names under
# SRC_DIR, each after the modules it depends on. A dependency cycle is an error naming the
# modules in it.
function(podsim_modules_in_dependency_order src_dir out_var)
  if(CMAKE_SCRIPT_MODE_FILE) # cmake -P (test_wscript_sync.py): no build to re-run
    file(GLOB _lists RELATIVE ${src_dir} ${src_dir}/*/CMakeLists.txt)
  else() # a new module directory re-runs the configuration
    file(GLOB _lists RELATIVE ${src_dir} CONFIGURE_DEPENDS ${src_dir}/*/CMakeLists.txt)
  endif()
  set(_pending "")
  foreach(_f IN LISTS _lists)
    get_filename_component(_m ${_f} DIRECTORY)
    list(APPEND _pending ${_m})
  endforeach()
  list(SORT _pending)
  foreach(_m IN LISTS _pending)
    file(READ ${src_dir}/${_m}/CMakeLists.txt _text)
    string(REGEX MATCHALL "\\$\\{lib[A-Za-z0-9_-]+\\}" _refs "${_text}")
    set(_deps_${_m} "")
    foreach(_r IN LISTS _refs)
      string(REGEX REPLACE "^\\$\\{lib(.*)\\}$" "\\1" _d "${_r}")
      if(NOT _d STREQUAL _m AND _d IN_LIST _pending)
        list(APPEND _deps_${_m} ${_d})
      endif()
    endforeach()
  endforeach()
  set(_ordered "")
  while(_pending)
    set(_progress FALSE)
    foreach(_m IN LISTS _pending)
      set(_ready TRUE)
      foreach(_d IN LISTS _deps_${_m})
        if(NOT _d IN_LIST _ordered)
          set(_ready FALSE)
        endif()
      endforeach()
      if(_ready)
        list(APPEND _ordered ${_m})
        list(REMOVE_ITEM _pending ${_m})
        set(_progress TRUE)
      endif()
    endforeach()
    if(NOT _progress)
      message(FATAL_ERROR "podsim: the modules ${_pending} depend on each other (a cycle)")
    endif()
  endwhile()
  set(${out_var} ${_ordered} PARENT_SCOPE)
endfunction()
