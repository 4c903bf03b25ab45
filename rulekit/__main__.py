# SPDX-License-Identifier: MIT
import sys

from .cli.entry import main

sys.exit(main())
