# -*- Python -*-
# GoogleTest unit tests, run through lit so the suite has one summary.

import os

import lit.formats

config.name = "gpuad-unit"
config.test_format = lit.formats.GoogleTest(".", "unittests")
config.test_source_root = os.path.join(config.gpuad_unittests_dir)
config.test_exec_root = config.gpuad_unittests_dir
lit_config.load_config(
    config, os.path.join(config.gpuad_src_root, "test", "sanitizer.cfg.py"))
