# Shared by the tests written as CMake scripts (install_tree, man_pages): their -D arguments,
# and failures that are counted, so that a script reports every problem it finds and then
# fails through its exit code.

cmake_minimum_required(VERSION 3.25)

# Stops unless each named variable was given with -D.
function(require_arguments script)
    foreach(var IN LISTS ARGN)
        if(NOT DEFINED ${var})
            message(FATAL_ERROR "${script} needs -D${var}=...")
        endif()
    endforeach()
endfunction()

set(failures 0)
# Reports one failed check and counts it (in the caller's scope).
function(fail what)
    message(SEND_ERROR "${what}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
endfunction()

# The end of a script: fails when a check failed, else says what passed.
function(finish script passed)
    if(failures GREATER 0)
        message(FATAL_ERROR "${script}: ${failures} check(s) failed")
    endif()
    message(STATUS "${script}: ${passed}")
endfunction()
