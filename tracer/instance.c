// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace's instances: "mkdir instances/NAME" makes a whole tracer of its
 * own (a struct rbtr_trace with its buffer, snapshot, clock, sizes,
 * tracing_on, readers and locks, and the tree of its files), "rmdir"
 * removes it, as ftrace's instance_mkdir() and instance_rmdir() do. The
 * top directory is the tracer rbtr_global_trace, built the same way.
 *
 * debugfs has no mkdir of its own: as tracefs does, the instances
 * directory gets inode operations with .mkdir and .rmdir. The VFS calls
 * them with the parent (and for rmdir the victim) locked; they drop those
 * locks around the work, because creating and removing the instance's
 * files takes them again (debugfs_create_dir() finds the negative dentry
 * the VFS passed by its lookup and instantiates it).
 *
 * Lifetime. Every file of a tracer takes a reference at open
 * (rbtr_trace_get(), trace.c) and drops it at release: a mapping keeps its file,
 * so a mapped trace_pipe_raw holds one too. rmdir refuses with -EBUSY
 * while the count is not 0; else it marks the instance dead under the
 * same mutex, so that no open gets a reference after that, and removes
 * the files and then the state. An open may still reach a file of a
 * removed instance (a trace_pipe_raw is not proxied by debugfs, so the
 * removal does not wait for its opens): rbtr_trace_get() then looks the
 * tracer up by address in the list without touching it, as ftrace's
 * trace_array_get() does, and refuses.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "function.h"
#include "pid.h"
#include "kevents_syscalls.h"
#include "trace.h"

/* ftrace's default watermark for splice and poll of trace_pipe_raw */
#define RBTR_DEFAULT_PERCENT	50

/* Set at unload: mkdir refuses from then on. Under the mutex. */
static bool rbtr_instances_closed;
static struct dentry *rbtr_instances_dir;
static int (*rbtr_instance_files)(struct rbtr_trace *tr);

/* The geometry of a new instance's buffer: the module's parameters. */
static unsigned long rbtr_inst_size = 1024UL << 10;
static unsigned int rbtr_inst_flags = RBT_FL_OVERWRITE;
static unsigned int rbtr_inst_order;

/**
 * rbtr_instances_defaults - what a new instance's buffer is made with
 * @size: bytes per CPU
 * @flags: rbt_alloc()'s flags (the mode)
 * @subbuf_order: the sub-buffer order
 *
 * As ftrace's instances take trace_buf_size: the module's load-time
 * parameters, not what the top tracer was resized to since.
 */
void rbtr_instances_defaults(unsigned long size, unsigned int flags,
			     unsigned int subbuf_order)
{
	rbtr_inst_size = size;
	rbtr_inst_flags = flags;
	rbtr_inst_order = subbuf_order;
}

/*
 * An instance's events/ and set_event (event_file.c): made last of mkdir,
 * under rbtr_instances_mutex, before any file of @tr can be opened (a
 * failure undoes the instance); removed first of rmdir's removal, not
 * under the mutex (it waits for the events files' operations in flight),
 * after which no event of @tr is recorded.
 */
static int rbtr_instance_events_add(struct rbtr_trace *tr)
{
	int ret = rbtr_events_instance_add(tr, tr->dir);

	/* Made while another tracer had a pid list, they may have RBTR_EVC_PID. */
	if (!ret)
		rbtr_pid_events_sync(tr);
	return ret;
}

static void rbtr_instance_events_remove(struct rbtr_trace *tr)
{
	rbtr_events_instance_remove(tr);
}

/* Under rbtr_instances_mutex. */
static struct rbtr_instance *rbtr_instance_find(const char *name)
{
	struct rbtr_instance *ins;

	list_for_each_entry(ins, &rbtr_instances, list)
		if (!strcmp(ins->name, name))
			return ins;
	return NULL;
}

/**
 * rbtr_trace_init - make @tr the tracer of @buffer
 * @tr: the tracer, zeroed
 * @buffer: its buffer
 *
 * Return: 0 or -ENOMEM; nothing is left behind on failure.
 */
int rbtr_trace_init(struct rbtr_trace *tr, struct rbt_buffer *buffer)
{
	int cpu;

	tr->access = kcalloc(nr_cpu_ids, sizeof(*tr->access), GFP_KERNEL);
	if (!tr->access)
		return -ENOMEM;
	if (rbtr_pid_tr_init(tr)) {
		kfree(tr->access);
		tr->access = NULL;
		return -ENOMEM;
	}
	if (rbtr_fn_tr_init(tr)) {
		rbtr_pid_tr_exit(tr);
		kfree(tr->access);
		tr->access = NULL;
		return -ENOMEM;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		mutex_init(&tr->access[cpu]);
	mutex_init(&tr->files_mutex);
	tr->buffer = buffer;
	tr->buffer_percent = RBTR_DEFAULT_PERCENT;
	/* As ftrace 6.19: an instance starts with the top tracer's value. */
	tr->syscall_buf_sz = tr == &rbtr_global_trace ? RBTR_KSYS_USER_DEFAULT :
			     READ_ONCE(rbtr_global_trace.syscall_buf_sz);
	/* The clock the buffer was made with; NULL if not one of ours. */
	tr->clock = rbt_buffer_clock(buffer);
	if (tr->clock)
		rbt_clock_get(tr->clock);
	rbtr_snapshot_init(tr);
	return 0;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_trace_init);
#endif

/**
 * rbtr_trace_exit - undo rbtr_trace_init(); no file of @tr may be open
 * @tr: the tracer
 */
void rbtr_trace_exit(struct rbtr_trace *tr)
{
	/* The function tracer first: its callbacks read the pid state. */
	rbtr_fn_tr_exit(tr);
	rbtr_pid_tr_exit(tr);
	rbtr_snapshot_exit(tr);
	if (tr->clock)
		rbt_clock_put(tr->clock);
	tr->clock = NULL;
	kfree(tr->access);
	tr->access = NULL;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_trace_exit);
#endif

/* Undo rbtr_instance_alloc(); no file of it open, its tree removed. */
static void rbtr_instance_free(struct rbtr_instance *ins)
{
	/* Off the markers' copies, their writes in flight done. */
	rbtr_marker_copy_set(&ins->tr, false);
	rbtr_trace_exit(&ins->tr);
	rbt_free(ins->tr.buffer);
	kfree(ins->name);
	kfree(ins);
}

/* A tracer with its buffer and its state, no files yet. */
static struct rbtr_instance *rbtr_instance_alloc(const char *name)
{
	struct rbtr_instance *ins;
	struct rbt_buffer *buffer;

	ins = kzalloc(sizeof(*ins), GFP_KERNEL);
	if (!ins)
		return NULL;
	ins->name = kstrdup(name, GFP_KERNEL);
	buffer = rbt_alloc(rbtr_inst_size, rbtr_inst_flags, rbtr_inst_order);
	if (!ins->name || !buffer)
		goto fail;
	if (rbtr_trace_init(&ins->tr, buffer))
		goto fail;
	return ins;
fail:
	if (buffer)
		rbt_free(buffer);
	kfree(ins->name);
	kfree(ins);
	return NULL;
}

/* instance_mkdir(): the instance and its tree, or nothing. */
static int rbtr_instance_new(const char *name)
{
	struct rbtr_instance *ins;
	struct dentry *dir;
	int ret;

	/* The buffer first: every open waits for the mutex. */
	ins = rbtr_instance_alloc(name);
	if (!ins)
		return -ENOMEM;
	mutex_lock(&rbtr_instances_mutex);
	ret = -ENODEV;
	if (rbtr_instances_closed)
		goto fail;
	/* A dying one still has its directory: as if it were still there. */
	ret = -EEXIST;
	if (rbtr_instance_find(name))
		goto fail;
	dir = debugfs_create_dir(name, rbtr_instances_dir);
	if (IS_ERR(dir)) {
		ret = PTR_ERR(dir);
		goto fail;
	}
	ins->tr.dir = dir;
	/* No file opens before the list has it: none is open on failure. */
	ret = rbtr_instance_files(&ins->tr);
	if (!ret)
		ret = rbtr_instance_events_add(&ins->tr);
	if (ret) {
		/* Not under the mutex: an open of a new file may be in flight. */
		mutex_unlock(&rbtr_instances_mutex);
		debugfs_remove_recursive(dir);
		rbtr_instance_free(ins);
		return ret;
	}
	list_add_tail(&ins->list, &rbtr_instances);
	mutex_unlock(&rbtr_instances_mutex);
	return 0;
fail:
	mutex_unlock(&rbtr_instances_mutex);
	rbtr_instance_free(ins);
	return ret;
}

/*
 * The files of an instance out of every open's reach (dead or out of the
 * list), not under the mutex: see rbtr_instances_mutex. The removal
 * waits for the opens in flight of proxied files, which then fail.
 */
static void rbtr_instance_unfile(struct rbtr_instance *ins)
{
	rbtr_instance_events_remove(&ins->tr);
	debugfs_remove_recursive(ins->tr.dir);
	ins->tr.dir = NULL;
}

/* instance_rmdir(): -EBUSY while a file of it is open (or mapped). */
static int rbtr_instance_del(const char *name)
{
	struct rbtr_instance *ins;

	mutex_lock(&rbtr_instances_mutex);
	ins = rbtr_instance_find(name);
	if (!ins || ins->tr.dead) {
		mutex_unlock(&rbtr_instances_mutex);
		return -ENOENT;
	}
	if (ins->tr.ref) {
		mutex_unlock(&rbtr_instances_mutex);
		return -EBUSY;
	}
	/* From here no open takes a reference (rbtr_trace_get()). */
	ins->tr.dead = true;
	mutex_unlock(&rbtr_instances_mutex);

	rbtr_instance_unfile(ins);

	/* Its name is free again only now that its directory is gone. */
	mutex_lock(&rbtr_instances_mutex);
	list_del(&ins->list);
	mutex_unlock(&rbtr_instances_mutex);
	rbtr_instance_free(ins);
	return 0;
}

/*
 * The name the VFS looked up, copied while the parent is still locked
 * (tracefs's get_dname()).
 */
static char *rbtr_dname(struct dentry *dentry)
{
	return kmemdup_nul(dentry->d_name.name, dentry->d_name.len, GFP_KERNEL);
}

/*
 * mkdir and rmdir run module code without a module reference from the
 * VFS: they hold one while they run, and the name the VFS looked up,
 * copied while the parent is still locked. ERR_PTR(-ENODEV) while the
 * module goes, ERR_PTR(-ENOMEM).
 */
static char *rbtr_instances_op_begin(struct dentry *dentry)
{
	char *name;

	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-ENODEV);
	name = rbtr_dname(dentry);
	if (!name) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	return name;
}

static void rbtr_instances_op_end(char *name)
{
	kfree(name);
	module_put(THIS_MODULE);
}

/*
 * The VFS calls these without a module reference: they take one, so
 * that rmmod waits (refuses) while one runs. Refused too while the load
 * is not complete (a failed load frees the module without waiting for
 * references: rbtr_check_open()). The module cannot be freed between
 * module_put() and the return: the parent is locked again by then, and
 * the unload's removal of instances/ takes that lock.
 */
#ifdef RBT_HAVE_MKDIR_IDMAP
static int rbtr_instances_mkdir(struct mnt_idmap *idmap, struct inode *dir,
				struct dentry *dentry, umode_t mode)
#else
static int rbtr_instances_mkdir(struct user_namespace *ns, struct inode *dir,
				struct dentry *dentry, umode_t mode)
#endif
{
	char *name;
	int ret;

	ret = rbtr_check_open();
	if (ret)
		return ret;
	name = rbtr_instances_op_begin(dentry);
	if (IS_ERR(name))
		return PTR_ERR(name);
	inode_unlock(dir);
	ret = rbtr_instance_new(name);
	inode_lock(dir);
	rbtr_instances_op_end(name);
	return ret;
}

static int rbtr_instances_rmdir(struct inode *dir, struct dentry *dentry)
{
	char *name;
	int ret;

	name = rbtr_instances_op_begin(dentry);
	if (IS_ERR(name))
		return PTR_ERR(name);
	/* The removal locks both again, as tracefs_syscall_rmdir(). */
	inode_unlock(dir);
	inode_unlock(d_inode(dentry));
	ret = rbtr_instance_del(name);
	inode_lock_nested(dir, I_MUTEX_PARENT);
	inode_lock(d_inode(dentry));
	rbtr_instances_op_end(name);
	return ret;
}

/* simple_dir_inode_operations (debugfs 6.1's), with mkdir and rmdir. */
static const struct inode_operations rbtr_instances_iops = {
	.lookup		= simple_lookup,
	.mkdir		= rbtr_instances_mkdir,
	.rmdir		= rbtr_instances_rmdir,
};

/**
 * rbtr_instances_init - create the instances directory
 * @parent: the top directory
 * @files: what makes a tracer's files in its directory (tree.c)
 *
 * Return: 0 or a negative errno (nothing left behind).
 */
int rbtr_instances_init(struct dentry *parent, int (*files)(struct rbtr_trace *tr))
{
	struct dentry *dir;

	dir = debugfs_create_dir("instances", parent);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	rbtr_instance_files = files;
	/* A mkdir before this store gets debugfs's -EPERM: harmless. */
	WRITE_ONCE(d_inode(dir)->i_op, &rbtr_instances_iops);
	mutex_lock(&rbtr_instances_mutex);
	rbtr_instances_closed = false;
	rbtr_instances_dir = dir;
	mutex_unlock(&rbtr_instances_mutex);
	return 0;
}

/**
 * rbtr_instances_exit - remove every instance and the directory
 *
 * At unload (no file is open: each holds a module reference, and so do
 * mkdir and rmdir while they run) or after a failed load. Safe if
 * rbtr_instances_init() did not run or failed.
 */
void rbtr_instances_exit(void)
{
	struct rbtr_instance *ins, *tmp;
	LIST_HEAD(dying);

	mutex_lock(&rbtr_instances_mutex);
	rbtr_instances_closed = true;
	list_splice_init(&rbtr_instances, &dying);
	mutex_unlock(&rbtr_instances_mutex);
	list_for_each_entry_safe(ins, tmp, &dying, list) {
		list_del(&ins->list);
		WARN_ON_ONCE(ins->tr.ref);
		rbtr_instance_unfile(ins);
		rbtr_instance_free(ins);
	}
	debugfs_remove_recursive(rbtr_instances_dir);
	rbtr_instances_dir = NULL;
}
