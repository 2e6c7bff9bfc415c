# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration for rbtrace's documentation. Plain Sphinx, no
# extensions, so that Debian's python3-sphinx builds it:
#
#	sphinx-build -W -b html Documentation /tmp/out

project = 'rbtrace'
copyright = 'The rbtrace developers'
author = 'The rbtrace developers'

root_doc = 'index'
master_doc = 'index'	# Sphinx before 4.0
source_suffix = '.rst'
exclude_patterns = ['_build']

# The text is kernel-style: literal blocks are ASCII diagrams and C.
highlight_language = 'none'
html_theme = 'alabaster'
