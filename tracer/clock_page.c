// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace trace_clock_page: the page the latch clock lives in
 * (rbt_clock_page(), laid out as <uapi/rbtrace/clock_page.h>), for user
 * space to read the clock without a system call.
 *
 *  - mmap(): one page at offset 0, read-only and shared (PROT_READ,
 *    MAP_SHARED). Writable or executable: -EPERM; private (a COW copy
 *    would stop following the clock): -EINVAL; a non-zero offset or more
 *    than one page: -EINVAL. VM_MAYWRITE and VM_MAYEXEC are cleared, so
 *    mprotect() cannot add PROT_WRITE or PROT_EXEC later (-EACCES).
 *  - While mapped the latch clock has a user (rbt_clock_get()): its
 *    slots are updated every 100 ms and follow tsc_khz, whatever
 *    trace_clock says. The mapping holds the file, the file the module
 *    (.owner): rmmod is refused until the last munmap(), and the page,
 *    freed only at unload, stays valid as long as it is mapped.
 *  - read(): the page's bytes (a copy; its slots may be mid-update: only
 *    a mapping and rbtrace_clock_read() give a consistent time).
 *
 * The page is in the linear map and never freed while mapped: the ptes
 * are VM_PFNMAP (remap_pfn_range()) and need no page reference.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <rbtrace/rbtrace.h>
#include <uapi/rbtrace/clock_page.h>
#include "clock_page.h"
#include "trace.h"

/* vm_flags became read-only, with helpers to change it, in 6.3. */
static void rbtr_vma_flags_mod(struct vm_area_struct *vma, vm_flags_t set, vm_flags_t clear)
{
#ifdef RBT_HAVE_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

static const struct rbt_clock *rbtr_latch(void)
{
	return rbt_clock_find("latch");
}

/* A VMA copied from ours (fork(), mremap()) holds the clock too. */
static void rbtr_clock_vm_open(struct vm_area_struct *vma)
{
	rbt_clock_get(rbtr_latch());
}

static void rbtr_clock_vm_close(struct vm_area_struct *vma)
{
	rbt_clock_put(rbtr_latch());
}

static const struct vm_operations_struct rbtr_clock_vm_ops = {
	.open	= rbtr_clock_vm_open,
	.close	= rbtr_clock_vm_close,
};

static int rbtr_clock_page_mmap(struct file *file, struct vm_area_struct *vma)
{
	const void *page = rbt_clock_page();
	int ret;

	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	/* MAP_SHARED of a read-only file sets VM_MAYSHARE, not VM_SHARED. */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_pgoff || vma_pages(vma) != 1)
		return -EINVAL;
	rbtr_vma_flags_mod(vma, VM_DONTEXPAND, VM_MAYWRITE | VM_MAYEXEC);
	ret = remap_pfn_range(vma, vma->vm_start, page_to_pfn(virt_to_page(page)),
			      PAGE_SIZE, vma->vm_page_prot);
	if (ret)
		return ret;
	rbt_clock_get(rbtr_latch());
	vma->vm_ops = &rbtr_clock_vm_ops;
	return 0;
}

static ssize_t rbtr_clock_page_read(struct file *file, char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	return simple_read_from_buffer(ubuf, cnt, ppos, rbt_clock_page(), PAGE_SIZE);
}

static int rbtr_clock_page_open(struct inode *inode, struct file *file)
{
	return rbtr_check_open();
}

/*
 * Created with debugfs_create_file_unsafe(): debugfs's proxy has no
 * .mmap. The module reference open takes (.owner) keeps rmmod away while
 * the file is open or mapped.
 */
static const struct file_operations rbtr_clock_page_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_clock_page_open,
	.read		= rbtr_clock_page_read,
	.llseek		= default_llseek,
	.mmap		= rbtr_clock_page_mmap,
};

/**
 * rbtr_clock_page_files - create trace_clock_page
 * @dir: the top directory (the clock is one for all tracers)
 */
void rbtr_clock_page_files(struct dentry *dir)
{
	debugfs_create_file_unsafe("trace_clock_page", 0400, dir, NULL,
				   &rbtr_clock_page_fops);
}
