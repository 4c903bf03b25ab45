# SPDX-License-Identifier: MIT
import sys

from .tools.cli import main

sys.exit(main())
