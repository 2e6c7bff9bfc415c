/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_DEBUGFS_H
#define _RB_DEBUGFS_H

struct rbt_buffer;

int rb_debugfs_init(struct rbt_buffer *buffer);
void rb_debugfs_exit(void);

#endif /* _RB_DEBUGFS_H */
