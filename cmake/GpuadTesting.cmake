# Test helpers: filled in by test/CMakeLists.txt.
