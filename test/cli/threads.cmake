# The tests of the worker pools, labelled "threads": CI runs them again in a ThreadSanitizer build
# (utils/quickstart.sh test). xmx-run's pool runs work-groups in parallel; xmx-val's validates
# several files in parallel.
add_test(NAME val.threads.many_files
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_val_many.py
                 --xmx-val $<TARGET_FILE:xmx-val> --corpus ${XMX_CORPUS_DIR}/spv)
set_tests_properties(val.threads.many_files PROPERTIES TIMEOUT 600)

set_property(TEST val.threads.many_files run.threads.gemm_bf16 run.threads.atomics_global
                  run.threads.local_histogram run.threads.printf run.limits.threads.capped
             APPEND PROPERTY LABELS threads)
