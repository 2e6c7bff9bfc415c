/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace trace_clock_page: the latch clock's page, mapped by user space.
 */
#ifndef _RBTR_CLOCK_PAGE_H
#define _RBTR_CLOCK_PAGE_H

struct dentry;

void rbtr_clock_page_files(struct dentry *dir);

#endif /* _RBTR_CLOCK_PAGE_H */
