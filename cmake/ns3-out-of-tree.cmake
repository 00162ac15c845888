# Copyright (c) 2026 podsim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Standalone build of podsim modules against an installed ns-3.37 (Debian's libns3-dev).
#
# Module directories under src/ use only the in-tree ns-3.37 API: build_lib(), build_lib_example()
# and ${lib<module>} variables. In an ns-3.37 source tree those come from
# build-support/custom-modules/ns3-module-macros.cmake; here this file provides them:
#
#  1. find ns-3.37, through its CMake config package when that package is complete, otherwise
#     through the ns3-<module>.pc files (Debian's config package names three helper programs that
#     Debian does not ship, so find_package(ns3) fails there);
#  2. map ${libcore}, ${libnetwork}, ... to imported targets;
#  3. define NS3_LOG_ENABLE and NS3_ASSERT_ENABLE, without which NS_LOG and NS_ASSERT compile away;
#  4. build_lib(): a shared library lib<name>, its headers copied to build/include/ns3/ with a
#     generated <name>-module.h, its examples/ directory, and a lib<name>-test library;
#  5. build_lib_example(): one program per example, linked to its module;
#  6. ns3_oot_add_test_runner(): one test-runner linking every test library, registered with CTest.

include_guard(GLOBAL)
find_package(PkgConfig REQUIRED)
find_package(Python3 COMPONENTS Interpreter Development REQUIRED)
find_package(LibXml2 QUIET)

set(NS3_OOT_MODULES core network stats)
set(NS3_OOT_VERSION 3.37)

# ---- 1 and 2: locate ns-3 -------------------------------------------------------------------
set(_ns3_config_complete FALSE)
find_file(_ns3_targets_file ns3Targets.cmake PATHS /usr/lib/x86_64-linux-gnu/cmake/ns3
          /usr/lib/cmake/ns3 /usr/local/lib/cmake/ns3 NO_DEFAULT_PATH)
if(_ns3_targets_file)
  # The export set is complete only if every file it names exists.
  file(STRINGS "${_ns3_targets_file}" _ns3_creators REGEX "creator")
  set(_ns3_config_complete TRUE)
  foreach(_creator raw-sock-creator tap-device-creator tap-creator)
    if(NOT EXISTS "/usr/libexec/ns3/ns${NS3_OOT_VERSION}-${_creator}")
      set(_ns3_config_complete FALSE)
    endif()
  endforeach()
endif()

if(_ns3_config_complete)
  find_package(ns3 ${NS3_OOT_VERSION} EXACT REQUIRED)
  message(STATUS "ns-3 ${NS3_OOT_VERSION}: found through its CMake config package")
  foreach(_m IN LISTS NS3_OOT_MODULES)
    set(lib${_m} ns3::lib${_m})
  endforeach()
else()
  message(STATUS "ns-3 ${NS3_OOT_VERSION}: config package incomplete, using ns3-<module>.pc")
  set(_ns3_incs "")
  if(LIBXML2_INCLUDE_DIR)
    list(APPEND _ns3_incs ${LIBXML2_INCLUDE_DIR})
  endif()
  list(APPEND _ns3_incs ${Python3_INCLUDE_DIRS})
  foreach(_m IN LISTS NS3_OOT_MODULES)
    pkg_check_modules(NS3PC_${_m} REQUIRED ns3-${_m}=${NS3_OOT_VERSION})
    find_library(NS3LIB_${_m} NAMES ns3-${_m} ns${NS3_OOT_VERSION}-${_m}
                 HINTS ${NS3PC_${_m}_LIBDIR} REQUIRED)
    add_library(ns3::lib${_m} SHARED IMPORTED GLOBAL)
    # The .pc Cflags carry a stray "-I/usr;" token, so include directories are set explicitly.
    set_target_properties(ns3::lib${_m} PROPERTIES
      IMPORTED_LOCATION "${NS3LIB_${_m}}"
      INTERFACE_INCLUDE_DIRECTORIES "${NS3PC_${_m}_INCLUDEDIR};${_ns3_incs}")
    set(lib${_m} ns3::lib${_m})
  endforeach()
  # Dependencies between ns-3 modules, and the libraries ns-3 links but does not declare.
  find_library(_gsl gsl)
  find_library(_gslcblas gslcblas)
  target_link_libraries(ns3::libcore INTERFACE ${_gsl} ${_gslcblas})
  target_link_libraries(ns3::libstats INTERFACE ns3::libcore)
  target_link_libraries(ns3::libnetwork INTERFACE ns3::libcore ns3::libstats)
endif()

# ---- 3: logging and asserts in our own code -------------------------------------------------
add_compile_definitions(NS3_LOG_ENABLE NS3_ASSERT_ENABLE)

set(NS3_OOT_TEST_LIBS "" CACHE INTERNAL "test libraries of all modules")
set(NS3_OOT_LIBS "" CACHE INTERNAL "module libraries")
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/include/ns3)

# ---- 4: build_lib ---------------------------------------------------------------------------
function(build_lib)
  set(options IGNORE_PCH)
  set(oneValueArgs LIBNAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK TEST_SOURCES
                     PRIVATE_HEADER_FILES DEPRECATED_HEADER_FILES MODULE_ENABLED_FEATURES)
  cmake_parse_arguments(BLIB "${options}" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})

  set(_target lib${BLIB_LIBNAME})
  add_library(${_target} SHARED ${BLIB_SOURCE_FILES})
  set_target_properties(${_target} PROPERTIES OUTPUT_NAME podsim-${BLIB_LIBNAME}
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
  target_include_directories(${_target} PUBLIC ${CMAKE_BINARY_DIR}/include)
  # ns-3 modules are PUBLIC, everything else PRIVATE, as in-tree.
  set(_ns3_libs "")
  set(_other_libs "")
  foreach(_l IN LISTS BLIB_LIBRARIES_TO_LINK)
    if(TARGET ${_l})
      list(APPEND _ns3_libs ${_l})
    else()
      list(APPEND _other_libs ${_l})
    endif()
  endforeach()
  target_link_libraries(${_target} PUBLIC ${_ns3_libs} PRIVATE ${_other_libs})

  # Headers go to build/include/ns3/, with a <name>-module.h including them all.
  set(_module_header "${CMAKE_BINARY_DIR}/include/ns3/${BLIB_LIBNAME}-module.h")
  set(_content "// Generated by cmake/ns3-out-of-tree.cmake for module ${BLIB_LIBNAME}\n")
  string(TOUPPER "NS3_MODULE_${BLIB_LIBNAME}" _guard)
  string(REPLACE "-" "_" _guard "${_guard}")
  string(APPEND _content "#ifndef ${_guard}\n#define ${_guard}\n")
  foreach(_h IN LISTS BLIB_HEADER_FILES)
    get_filename_component(_hn ${_h} NAME)
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${_h} ${CMAKE_BINARY_DIR}/include/ns3/${_hn} COPYONLY)
    string(APPEND _content "#include \"ns3/${_hn}\"\n")
  endforeach()
  string(APPEND _content "#endif\n")
  file(WRITE "${_module_header}.tmp" "${_content}")
  configure_file("${_module_header}.tmp" "${_module_header}" COPYONLY)
  set(NS3_OOT_LIBS "${NS3_OOT_LIBS};${_target}" CACHE INTERNAL "")

  if(BLIB_TEST_SOURCES)
    add_library(${_target}-test SHARED ${BLIB_TEST_SOURCES})
    set_target_properties(${_target}-test PROPERTIES OUTPUT_NAME podsim-${BLIB_LIBNAME}-test
                          LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
    file(RELATIVE_PATH _rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    target_compile_definitions(${_target}-test PRIVATE NS_TEST_SOURCEDIR="${_rel}/test")
    target_link_libraries(${_target}-test PRIVATE ${_target} ${_ns3_libs} ${_other_libs})
    set(NS3_OOT_TEST_LIBS "${NS3_OOT_TEST_LIBS};${_target}-test" CACHE INTERNAL "")
  endif()

  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    add_subdirectory(examples)
  endif()
endfunction()

# ---- 5: build_lib_example -------------------------------------------------------------------
function(build_lib_example)
  set(oneValueArgs NAME)
  set(multiValueArgs SOURCE_FILES HEADER_FILES LIBRARIES_TO_LINK)
  cmake_parse_arguments(BLIB_EXAMPLE "" "${oneValueArgs}" "${multiValueArgs}" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  set_target_properties(${BLIB_EXAMPLE_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                        ${CMAKE_BINARY_DIR}/bin)
  # The plain signature, as ns-3's build_exec(): an examples/CMakeLists.txt that links more to its
  # program (podsim-run: tcmalloc) then works in both builds.
  target_link_libraries(${BLIB_EXAMPLE_NAME} lib${BLIB_LIBNAME} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
endfunction()

# A program outside a module (scratch/, examples/): linked to every module.
function(ns3_oot_add_program name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  target_link_libraries(${name} PRIVATE ${NS3_OOT_LIBS})
endfunction()

# ---- 6: the test runner ---------------------------------------------------------------------
function(ns3_oot_add_test_runner)
  set(_main ${CMAKE_BINARY_DIR}/test-runner.cc)
  file(WRITE ${_main}.tmp
       "// Generated by cmake/ns3-out-of-tree.cmake\n"
       "#include \"ns3/picosecond-resolution.h\"\n#include \"ns3/test.h\"\n"
       "int\nmain(int argc, char** argv)\n{\n"
       "    // podsim runs at picosecond resolution (DESIGN.md rule 4): set before any suite\n"
       "    // runs (each suite also sets it in DoSetup, see ns3::PicosecondTestSuite).\n"
       "    ns3::EnsurePicosecondResolution();\n"
       "    return ns3::TestRunner::Run(argc, argv);\n}\n")
  configure_file(${_main}.tmp ${_main} COPYONLY)
  add_executable(test-runner ${_main})
  set_target_properties(test-runner PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  # Static TestSuite registrars live in libraries nothing references: keep them linked.
  target_link_libraries(test-runner PRIVATE -Wl,--no-as-needed ${NS3_OOT_TEST_LIBS}
                        -Wl,--as-needed ${NS3_OOT_LIBS} ${libcore})
  add_test(NAME ns3-test-runner COMMAND test-runner)
endfunction()
