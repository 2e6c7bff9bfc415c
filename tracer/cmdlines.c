// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace saved_cmdlines: the comm of the tasks that wrote events, so
 * that text output and trace-cmd show "bash-1234" instead of "<...>-1234".
 *
 * As ftrace's: a table of saved_cmdlines_size slots reused round-robin,
 * and a map from pid (modulo PID_MAX_DEFAULT) to slot. Writers save from
 * any context but NMI and never wait: they trylock with interrupts off,
 * and skip saving when the lock is busy. A per-CPU cache of the last task
 * saved keeps the lock off the path of a task writing many events.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/threads.h>
#include <linux/uaccess.h>
#include "event.h"
#include "trace.h"

#define RBTR_CMDLINES_DEFAULT	128
#define RBTR_CMDLINES_MAX		PID_MAX_DEFAULT
#define RBTR_PID_MAP_MASK		(PID_MAX_DEFAULT - 1)
#define RBTR_NO_SLOT		UINT_MAX

/* The slots: which pid each holds (-1: none), and its comm. */
struct rbtr_cmdlines {
	unsigned int	size;
	unsigned int	next;
	int		*slot_pid;
	char		(*comm)[TASK_COMM_LEN];
};

/* Last task saved on a CPU, at which generation of the table. */
struct rbtr_cmdline_cache {
	struct task_struct	*task;
	int			pid;
	unsigned int		gen;
	char			comm[TASK_COMM_LEN];
};

static DEFINE_RAW_SPINLOCK(rbtr_cmd_lock);
static DEFINE_MUTEX(rbtr_cmd_resize_mutex);
static struct rbtr_cmdlines *rbtr_cmds;	/* under rbtr_cmd_lock */
static unsigned int *rbtr_pid_map;	/* under rbtr_cmd_lock */
static unsigned int rbtr_cmd_gen;		/* bumped when the table is replaced */
static DEFINE_PER_CPU(struct rbtr_cmdline_cache, rbtr_cmd_cache);

static struct rbtr_cmdlines *rbtr_cmdlines_alloc(unsigned int size)
{
	struct rbtr_cmdlines *c;
	unsigned int i;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->size = size;
	c->slot_pid = kvmalloc_array(size, sizeof(*c->slot_pid), GFP_KERNEL);
	c->comm = kvmalloc_array(size, sizeof(*c->comm), GFP_KERNEL);
	if (!c->slot_pid || !c->comm) {
		kvfree(c->slot_pid);
		kvfree(c->comm);
		kfree(c);
		return NULL;
	}
	for (i = 0; i < size; i++)
		c->slot_pid[i] = -1;
	return c;
}

static void rbtr_cmdlines_free(struct rbtr_cmdlines *c)
{
	if (!c)
		return;
	kvfree(c->slot_pid);
	kvfree(c->comm);
	kfree(c);
}

/* Save @tsk's comm: reuse its slot, or take the next one round-robin. */
static void rbtr_cmdline_save_locked(struct task_struct *tsk)
{
	struct rbtr_cmdlines *c = rbtr_cmds;
	unsigned int slot = rbtr_pid_map[tsk->pid & RBTR_PID_MAP_MASK];
	int old;

	if (slot >= c->size || c->slot_pid[slot] != tsk->pid) {
		slot = c->next;
		c->next = (c->next + 1) % c->size;
		old = c->slot_pid[slot];
		if (old >= 0 && rbtr_pid_map[old & RBTR_PID_MAP_MASK] == slot)
			rbtr_pid_map[old & RBTR_PID_MAP_MASK] = RBTR_NO_SLOT;
		c->slot_pid[slot] = tsk->pid;
		rbtr_pid_map[tsk->pid & RBTR_PID_MAP_MASK] = slot;
	}
	memcpy(c->comm[slot], tsk->comm, TASK_COMM_LEN);
	c->comm[slot][TASK_COMM_LEN - 1] = '\0';
}

/**
 * rbtr_cmdline_save - remember the current task's comm for saved_cmdlines
 *
 * Callable from any context; does nothing in NMI, for the idle task, or
 * when another CPU holds the table.
 */
void rbtr_cmdline_save(void)
{
	struct task_struct *tsk = current;
	struct rbtr_cmdline_cache *cache;
	unsigned long flags;

	if (!tsk->pid || in_nmi())
		return;
	local_irq_save(flags);
	cache = this_cpu_ptr(&rbtr_cmd_cache);
	if (cache->task == tsk && cache->pid == tsk->pid &&
	    cache->gen == READ_ONCE(rbtr_cmd_gen) &&
	    !memcmp(cache->comm, tsk->comm, TASK_COMM_LEN))
		goto out;
	if (!raw_spin_trylock(&rbtr_cmd_lock))
		goto out;
	if (rbtr_cmds) {
		rbtr_cmdline_save_locked(tsk);
		cache->task = tsk;
		cache->pid = tsk->pid;
		cache->gen = rbtr_cmd_gen;
		memcpy(cache->comm, tsk->comm, TASK_COMM_LEN);
	}
	raw_spin_unlock(&rbtr_cmd_lock);
out:
	local_irq_restore(flags);
}

/**
 * rbtr_cmdline_find - the comm saved for @pid
 * @pid: the pid of a record
 * @comm: set to the comm, "<idle>" for pid 0, or "<...>" if unknown
 */
void rbtr_cmdline_find(int pid, char comm[TASK_COMM_LEN])
{
	struct rbtr_cmdlines *c;
	unsigned long flags;
	unsigned int slot;

	if (!pid) {
		strscpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	strscpy(comm, "<...>", TASK_COMM_LEN);
	if (pid < 0)
		return;
	raw_spin_lock_irqsave(&rbtr_cmd_lock, flags);
	c = rbtr_cmds;
	if (c) {
		slot = rbtr_pid_map[pid & RBTR_PID_MAP_MASK];
		if (slot < c->size && c->slot_pid[slot] == pid)
			memcpy(comm, c->comm[slot], TASK_COMM_LEN);
	}
	raw_spin_unlock_irqrestore(&rbtr_cmd_lock, flags);
}

/* Replace the table by an empty one of @size slots. */
static int rbtr_cmdlines_resize(unsigned int size)
{
	struct rbtr_cmdlines *c, *old;
	unsigned long flags;
	unsigned int i;

	c = rbtr_cmdlines_alloc(size);
	if (!c)
		return -ENOMEM;
	raw_spin_lock_irqsave(&rbtr_cmd_lock, flags);
	old = rbtr_cmds;
	rbtr_cmds = c;
	for (i = 0; i < PID_MAX_DEFAULT; i++)
		rbtr_pid_map[i] = RBTR_NO_SLOT;
	WRITE_ONCE(rbtr_cmd_gen, rbtr_cmd_gen + 1);
	raw_spin_unlock_irqrestore(&rbtr_cmd_lock, flags);
	rbtr_cmdlines_free(old);
	return 0;
}

/*
 * saved_cmdlines: "pid comm" a line. Each record is copied out of the
 * table under the lock, one at a time, so that the lock is never held
 * while seq_file works.
 */
struct rbtr_cmdline_rec {
	int	pid;
	char	comm[TASK_COMM_LEN];
};

/* Copy the first used slot at or after *pos into @rec. */
static void *rbtr_cmdline_at(struct seq_file *m, loff_t *pos)
{
	struct rbtr_cmdline_rec *rec = m->private;
	struct rbtr_cmdlines *c;
	unsigned long flags;
	void *ret = NULL;

	raw_spin_lock_irqsave(&rbtr_cmd_lock, flags);
	c = rbtr_cmds;
	for (; c && *pos < c->size; (*pos)++) {
		if (c->slot_pid[*pos] < 0)
			continue;
		rec->pid = c->slot_pid[*pos];
		memcpy(rec->comm, c->comm[*pos], TASK_COMM_LEN);
		ret = rec;
		break;
	}
	raw_spin_unlock_irqrestore(&rbtr_cmd_lock, flags);
	return ret;
}

static void *rbtr_cmdline_start(struct seq_file *m, loff_t *pos)
{
	return rbtr_cmdline_at(m, pos);
}

static void *rbtr_cmdline_next(struct seq_file *m, void *v, loff_t *pos)
{
	(*pos)++;
	return rbtr_cmdline_at(m, pos);
}

static void rbtr_cmdline_stop(struct seq_file *m, void *v)
{
}

static int rbtr_cmdline_show(struct seq_file *m, void *v)
{
	struct rbtr_cmdline_rec *rec = v;

	seq_printf(m, "%d %s\n", rec->pid, rec->comm);
	return 0;
}

static const struct seq_operations rbtr_cmdline_seq_ops = {
	.start	= rbtr_cmdline_start,
	.next	= rbtr_cmdline_next,
	.stop	= rbtr_cmdline_stop,
	.show	= rbtr_cmdline_show,
};

static int rbtr_saved_cmdlines_open(struct inode *inode, struct file *file)
{
	int ret = rbtr_check_open();

	if (ret)
		return ret;
	return seq_open_private(file, &rbtr_cmdline_seq_ops,
				sizeof(struct rbtr_cmdline_rec));
}

static const struct file_operations rbtr_saved_cmdlines_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_saved_cmdlines_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release_private,
};

static ssize_t rbtr_cmdlines_size_read(struct file *file, char __user *ubuf,
				       size_t cnt, loff_t *ppos)
{
	unsigned long flags;
	unsigned int size;

	raw_spin_lock_irqsave(&rbtr_cmd_lock, flags);
	size = rbtr_cmds ? rbtr_cmds->size : 0;
	raw_spin_unlock_irqrestore(&rbtr_cmd_lock, flags);
	return rbtr_read_u64(ubuf, cnt, ppos, size);
}

static ssize_t rbtr_cmdlines_size_write(struct file *file, const char __user *ubuf,
					size_t cnt, loff_t *ppos)
{
	unsigned long val;
	int ret;

	ret = rbtr_write_ulong(ubuf, cnt, &val);
	if (ret)
		return ret;
	/* ftrace's bounds: at least one, at most PID_MAX_DEFAULT. */
	if (!val || val > RBTR_CMDLINES_MAX)
		return -EINVAL;
	mutex_lock(&rbtr_cmd_resize_mutex);
	ret = rbtr_cmdlines_resize(val);
	mutex_unlock(&rbtr_cmd_resize_mutex);
	if (ret)
		return ret;
	*ppos += cnt;
	return cnt;
}

static const struct file_operations rbtr_cmdlines_size_fops = {
	.owner		= THIS_MODULE,
	.open		= rbtr_open_generic,
	.read		= rbtr_cmdlines_size_read,
	.write		= rbtr_cmdlines_size_write,
	.llseek		= default_llseek,
};

/**
 * rbtr_cmdlines_init - allocate the table
 * @tr: the tracer
 *
 * Before the tree exists: the files come with it (rbtr_cmdlines_files()).
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_cmdlines_init(struct rbtr_trace *tr)
{
	int ret;

	rbtr_pid_map = kvmalloc_array(PID_MAX_DEFAULT, sizeof(*rbtr_pid_map), GFP_KERNEL);
	if (!rbtr_pid_map)
		return -ENOMEM;
	ret = rbtr_cmdlines_resize(RBTR_CMDLINES_DEFAULT);
	if (ret) {
		kvfree(rbtr_pid_map);
		rbtr_pid_map = NULL;
	}
	return ret;
}

/**
 * rbtr_cmdlines_files - create saved_cmdlines and saved_cmdlines_size
 * @tr: the tracer whose directory gets them
 */
void rbtr_cmdlines_files(struct rbtr_trace *tr)
{
	debugfs_create_file("saved_cmdlines", 0400, tr->dir, tr, &rbtr_saved_cmdlines_fops);
	debugfs_create_file("saved_cmdlines_size", 0600, tr->dir, tr,
			    &rbtr_cmdlines_size_fops);
}

/**
 * rbtr_cmdlines_exit - free the table; no event may be written any more
 */
void rbtr_cmdlines_exit(void)
{
	unsigned long flags;
	struct rbtr_cmdlines *c;

	raw_spin_lock_irqsave(&rbtr_cmd_lock, flags);
	c = rbtr_cmds;
	rbtr_cmds = NULL;
	raw_spin_unlock_irqrestore(&rbtr_cmd_lock, flags);
	rbtr_cmdlines_free(c);
	kvfree(rbtr_pid_map);
	rbtr_pid_map = NULL;
}
