# Precompiled headers, shared. A PUBLIC target_precompile_headers() gives every consumer a .gch
# of its own: with Asio/Beast that is ~260 MB per target, 12 GB per build tree (85 copies), and
# CI's sanitizer trees ran out of disk. Instead a few host targets build one PCH each and every
# other target reuses one (REUSE_FROM):
#   aiperf_asio            Asio/Beast headers, for targets that see aiperf_asio's headers;
#   aiperf_pch_test        catch.hpp, for tests;
#   aiperf_pch_test_asio   catch.hpp + Asio/Beast, for tests that see aiperf_asio's headers.
# A reused PCH is only valid with the same compiler flags, so a target with compile options of
# its own (-O2, -fno-sanitize=...) keeps a PCH of its own.

set(AIPERF_ASIO_PCH_HEADERS
  <boost/asio.hpp> <boost/asio/ssl.hpp> <boost/beast/core.hpp> <boost/beast/http.hpp>)

# out: TRUE when `target` compiles against aiperf_asio's usage requirements, i.e. it links it
# directly or through a chain of non-LINK_ONLY interface links (what would have given it the
# PUBLIC PCH before).
function(_aiperf_sees_asio target out)
  set(seen "")
  get_target_property(queue ${target} LINK_LIBRARIES)
  if(NOT queue)
    set(queue "")
  endif()
  set(found FALSE)
  while(queue)
    list(POP_FRONT queue dep)
    if(dep MATCHES "^\\$<LINK_ONLY:" OR NOT TARGET "${dep}" OR dep IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${dep})
    if(dep STREQUAL "aiperf_asio")
      set(found TRUE)
      break()
    endif()
    get_target_property(more ${dep} INTERFACE_LINK_LIBRARIES)
    if(more)
      list(APPEND queue ${more})
    endif()
  endwhile()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

function(_aiperf_all_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    _aiperf_all_targets(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Called once, after every target is defined.
function(aiperf_share_precompiled_headers)
  set(hosts aiperf_asio aiperf_pch_test aiperf_pch_test_asio)
  # Every target starts with the directory's add_compile_options(); aiperf_asio has no others,
  # the test hosts the tests' (AIPERF_TEST_COMPILE_OPTIONS).
  get_target_property(host_options aiperf_asio COMPILE_OPTIONS)
  if(TARGET aiperf_pch_test)
    get_target_property(test_host_options aiperf_pch_test COMPILE_OPTIONS)
  endif()
  _aiperf_all_targets(${CMAKE_SOURCE_DIR} targets)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$"
       OR t IN_LIST hosts)
      continue()
    endif()
    get_target_property(own_pch ${t} PRECOMPILE_HEADERS)
    get_target_property(reuse ${t} PRECOMPILE_HEADERS_REUSE_FROM)
    if(own_pch OR reuse)
      continue()
    endif()
    _aiperf_sees_asio(${t} asio)

    get_target_property(links ${t} LINK_LIBRARIES)
    set(test FALSE)
    if(links AND "aiperf_catch_main" IN_LIST links AND TARGET aiperf_pch_test)
      set(test TRUE)
    endif()
    get_target_property(options ${t} COMPILE_OPTIONS)
    if(options)
      list(REMOVE_ITEM options -O1)  # cold code (CMakeLists.txt): the host's -O2 PCH is valid at -O1
    endif()
    set(want "${host_options}")
    if(test)
      set(want "${test_host_options}")
    endif()
    if(NOT options STREQUAL want)
      # Flags differ from the host's: a PCH of its own, as before.
      if(test)
        target_precompile_headers(${t} PRIVATE <catch2/catch.hpp>)
      endif()
      if(asio)
        target_precompile_headers(${t} PRIVATE ${AIPERF_ASIO_PCH_HEADERS})
      endif()
    elseif(test AND asio)
      target_precompile_headers(${t} REUSE_FROM aiperf_pch_test_asio)
    elseif(test)
      target_precompile_headers(${t} REUSE_FROM aiperf_pch_test)
    elseif(asio)
      target_precompile_headers(${t} REUSE_FROM aiperf_asio)
    endif()
  endforeach()
endfunction()
