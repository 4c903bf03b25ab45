# SPDX-License-Identifier: MIT
"""The builder: checked content -> the records of a game's sections, one module by what it builds.
``rulekit.model.build_game`` runs the parts in the build's order and makes the :class:`~rulekit.model.Game`.

- ``context``: what every part shares (the content, the diagnostics, each text parsed once)
- ``records``: the frozen record of each section
- ``components``: sets, tables and items (`sets:`, `tables:`, `components:`), and where items start
- ``variables``: global and player variables
- ``board``: zones, families and player zones, and what a zone is dealt from
- ``names``: parameters, name clashes, and the signatures of functions, procedures and option groups
- ``program``: the compiler and the functions, the parameters' values, the procedures, phases and flow
- ``scoring``: categories, tie-breaks, who may win, invariants, and the estimate
- ``bots``: bots written as content and the `search:` settings
- ``texts``: where texts are written (``TEXT_PLACES``) and the front end's checks of every text
- ``checks``: what is told once everything is compiled, and the build's verdict
- ``provenance``: where the content says each rule comes from
"""
