# The install tree, as the Debian package lays it out: `cmake --install` into a fresh prefix,
# then every file is there, the icons have their sizes, the desktop entry and the AppStream
# metadata validate, the man pages render without warnings, and the installed programs run
# from another folder (they need nothing from the source or build tree).
# Run by CTest: cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DPREFIX=... -DVERSION=... -P install_tree.cmake

include("${CMAKE_CURRENT_LIST_DIR}/script_checks.cmake")
require_arguments(install_tree.cmake BUILD_DIR SOURCE_DIR PREFIX VERSION)

# Runs a command in `dir`; fails with its output unless it exits with 0. Its stdout goes to `out`.
function(run out dir)
    execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${dir}" RESULT_VARIABLE rc OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
    if(NOT rc STREQUAL "0")
        string(REPLACE ";" " " command "${ARGN}")
        message(FATAL_ERROR "install_tree: '${command}' exited with ${rc}\n${stdout}${stderr}")
    endif()
    set(${out} "${stdout}" PARENT_SCOPE)
endfunction()

# Install into a fresh prefix.
file(REMOVE_RECURSE "${PREFIX}")
run(ignored "${BUILD_DIR}" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}")

# Every file the package must have.
set(share "${PREFIX}/share")
set(expected
    bin/attention-lab
    bin/attention-lab-cli
    share/applications/attention-lab.desktop
    share/metainfo/io.github.attentionlab.AttentionLab.metainfo.xml
    share/icons/hicolor/scalable/apps/attention-lab.svg
    share/man/man1/attention-lab.1.gz
    share/man/man1/attention-lab-cli.1.gz
    share/attention-lab/models/reversal.safetensors
    share/doc/attention-lab/trace-format.md
    share/doc/attention-lab/lesson-format.md
    share/doc/attention-lab/model-format.md
    share/doc/attention-lab/session-format.md)
set(icon_sizes 16 22 24 32 48 64 128 256 512)
foreach(size IN LISTS icon_sizes)
    list(APPEND expected "share/icons/hicolor/${size}x${size}/apps/attention-lab.png")
endforeach()
file(GLOB lessons RELATIVE "${SOURCE_DIR}/lessons" "${SOURCE_DIR}/lessons/*/*.md")
list(LENGTH lessons lesson_count)
if(lesson_count LESS 26)
    fail("install_tree: expected the 13 lessons in two languages in ${SOURCE_DIR}/lessons, found ${lesson_count}")
endif()
foreach(lesson IN LISTS lessons)
    list(APPEND expected "share/attention-lab/lessons/${lesson}")
endforeach()
foreach(f IN LISTS expected)
    if(NOT EXISTS "${PREFIX}/${f}")
        fail("install_tree: missing from the install tree: ${f}")
    endif()
endforeach()
file(SHA256 "${SOURCE_DIR}/resources/models/reversal.safetensors" source_model)
file(SHA256 "${share}/attention-lab/models/reversal.safetensors" installed_model)
if(NOT source_model STREQUAL installed_model)
    fail("install_tree: the installed model differs from resources/models/reversal.safetensors")
endif()

# Each PNG icon is as large as its folder says: width and height are bytes 16..23 of a PNG
# (the IHDR chunk), big-endian.
foreach(size IN LISTS icon_sizes)
    set(png "${share}/icons/hicolor/${size}x${size}/apps/attention-lab.png")
    if(EXISTS "${png}")
        file(READ "${png}" header HEX LIMIT 24)
        string(SUBSTRING "${header}" 0 16 signature)
        string(SUBSTRING "${header}" 32 8 width_hex)
        string(SUBSTRING "${header}" 40 8 height_hex)
        math(EXPR width "0x${width_hex}")
        math(EXPR height "0x${height_hex}")
        if(NOT signature STREQUAL "89504e470d0a1a0a" OR NOT width EQUAL size OR NOT height EQUAL size)
            fail("install_tree: ${size}x${size}/apps/attention-lab.png is not a ${size} x ${size} PNG (${width} x ${height})")
        endif()
    endif()
endforeach()

# The desktop entry and the AppStream metadata, checked by the tools software centres use;
# validate-tree also checks that the metadata's launchable desktop file is installed.
find_program(DESKTOP_FILE_VALIDATE desktop-file-validate)
find_program(APPSTREAMCLI appstreamcli)
if(NOT DESKTOP_FILE_VALIDATE OR NOT APPSTREAMCLI)
    message(FATAL_ERROR "install_tree: desktop-file-validate and appstreamcli are needed: "
                        "apt-get install desktop-file-utils appstream (scripts/setup.sh installs them)")
endif()
run(desktop_output "${PREFIX}" "${DESKTOP_FILE_VALIDATE}" "${share}/applications/attention-lab.desktop")
if(desktop_output MATCHES "(error|warning):")
    fail("install_tree: desktop-file-validate: ${desktop_output}")
endif()
run(ignored "${PREFIX}" "${APPSTREAMCLI}" validate-tree --no-net "${PREFIX}")
# The desktop entry starts an installed program with an installed icon.
file(STRINGS "${share}/applications/attention-lab.desktop" exec_lines REGEX "^Exec=")
file(STRINGS "${share}/applications/attention-lab.desktop" icon_line REGEX "^Icon=")
foreach(line IN LISTS exec_lines)
    string(REGEX REPLACE "^Exec=([^ ]+).*" "\\1" program "${line}")
    if(NOT EXISTS "${PREFIX}/bin/${program}")
        fail("install_tree: the desktop entry runs '${program}', which is not in bin/")
    endif()
endforeach()
string(REGEX REPLACE "^Icon=" "" icon "${icon_line}")
if(NOT EXISTS "${share}/icons/hicolor/scalable/apps/${icon}.svg")
    fail("install_tree: the desktop entry's icon '${icon}' is not installed")
endif()
# The newest release of the metadata is this version.
file(READ "${share}/metainfo/io.github.attentionlab.AttentionLab.metainfo.xml" metainfo)
string(REGEX MATCH "<release version=\"([^\"]*)\"" ignored "${metainfo}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    fail("install_tree: the metainfo's newest release is '${CMAKE_MATCH_1}', the project's version ${VERSION}")
endif()

# The man pages render without a warning from groff (as lintian checks them).
find_program(MAN man)
if(NOT MAN)
    message(FATAL_ERROR "install_tree: man is needed to check the man pages: apt-get install man-db")
endif()
foreach(page attention-lab attention-lab-cli)
    execute_process(COMMAND "${CMAKE_COMMAND}" -E env LC_ALL=C.UTF-8 MANROFFSEQ= MANWIDTH=80
                            "${MAN}" --warnings -E UTF-8 -l -Tutf8 -Z "${share}/man/man1/${page}.1.gz"
                    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE warnings)
    if(NOT rc STREQUAL "0" OR NOT warnings STREQUAL "")
        fail("install_tree: man ${page}: exit ${rc}\n${warnings}")
    endif()
endforeach()

# The installed programs, run from a folder of their own: the lessons, translations and the
# model they need are inside them.
set(work "${PREFIX}/run")
file(MAKE_DIRECTORY "${work}")
set(cli "${PREFIX}/bin/attention-lab-cli")
run(version "${work}" "${cli}" --version)
if(NOT version STREQUAL "attention-lab-cli ${VERSION}\n")
    fail("install_tree: --version printed '${version}', expected 'attention-lab-cli ${VERSION}'")
endif()
run(trace "${work}" "${cli}" trace --sentence "狗咬了人")
string(JSON tokens ERROR_VARIABLE json_error GET "${trace}" tokens)
if(json_error)
    fail("install_tree: trace did not write JSON with tokens: ${json_error}")
else()
    string(JSON token_count LENGTH "${tokens}")
    string(JSON last GET "${tokens}" 3)
    if(NOT token_count EQUAL 4 OR NOT last STREQUAL "人")
        fail("install_tree: trace of 狗咬了人 has the tokens ${tokens}, expected [狗, 咬, 了, 人]")
    endif()
endif()
# The installed copies of a lesson and of the model are usable as files.
run(deck "${work}" "${cli}" lesson "${share}/attention-lab/lessons/zh/03-scaled-dot-product.md" --output deck.pdf)
file(READ "${work}/deck.pdf" pdf_magic HEX LIMIT 5)
if(NOT deck MATCHES "^wrote [0-9]+ pages" OR NOT pdf_magic STREQUAL "255044462d") # %PDF-
    fail("install_tree: lesson from the installed file: '${deck}', the file starts with the bytes ${pdf_magic}")
endif()
run(generated "${work}" "${cli}" generate --model "${share}/attention-lab/models/reversal.safetensors" --source "abc")
if(NOT generated MATCHES "output: c b a\n")
    fail("install_tree: the installed model did not reverse 'abc':\n${generated}")
endif()
# The studio starts far enough to parse its command line (its libraries and plugins load).
run(gui_help "${work}" "${CMAKE_COMMAND}" -E env QT_QPA_PLATFORM=offscreen "${PREFIX}/bin/attention-lab" --help)
if(NOT gui_help MATCHES "--lesson")
    fail("install_tree: attention-lab --help did not list --lesson:\n${gui_help}")
endif()

finish(install_tree "${PREFIX} has every file; the installed programs run")
