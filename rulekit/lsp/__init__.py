# SPDX-License-Identifier: MIT
"""``rulekit lsp``: a Language Server Protocol server for rulekit content, over stdio.

It checks what ``rulekit validate`` checks, on the buffers as they stand (:mod:`.documents`
feeds unsaved text to the loader), and answers hover, definition, references, completion,
document symbols, rename and quick fixes from an index of the game's names (:mod:`.names`).
pygls is an optional extra (``pip install -e '.[lsp]'`` in a checkout, ``pip install 'rulekit-games[lsp]'``
elsewhere): only :mod:`.server` imports it.
"""
