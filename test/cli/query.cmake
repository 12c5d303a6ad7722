# xmx-query (CLI.md) and the per-device cooperative-matrix rules of xmx-val (coop.device.*):
# - query.cli: the general, default and validation forms of the cooperative-matrix, matrix and
#   block2d tables on pvc, dg2 and bmg, JSON output, user profiles and usage errors (exit 2);
# - val.coop_device: modules of test/coop/device (hand-written, or its template filled in) each
#   drawing exactly the expected coop.device.* rules on a device;
# - query.val_consistency: xmx-query's verdict equals xmx-val's on the module of the same
#   combination, over a grid of types, shapes and subgroup sizes on pvc, dg2, bmg and xe3p.
set(XMX_COOP_DEVICE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/coop/device)

add_test(NAME query.cli
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_query.py
                 $<TARGET_FILE:xmx-query> ${XMX_COOP_DEVICE_DIR})
add_test(NAME val.coop_device
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_device.py cases
                 --xmx-as $<TARGET_FILE:xmx-as> --xmx-val $<TARGET_FILE:xmx-val>
                 --dir ${XMX_COOP_DEVICE_DIR})
add_test(NAME query.val_consistency
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_coop_device.py
                 consistency --xmx-as $<TARGET_FILE:xmx-as> --xmx-val $<TARGET_FILE:xmx-val>
                 --xmx-query $<TARGET_FILE:xmx-query> --dir ${XMX_COOP_DEVICE_DIR})
