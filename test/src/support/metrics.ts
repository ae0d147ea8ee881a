/** The sum of a counter's samples whose labels match, as a process's admin port reports it now. */
export async function counted(adminUrl: string, metric: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const samples = new RegExp(`^\\w*${metric}\\{[^}]*${labels}[^}]*\\} (\\d+)`, 'gm');
  return [...text.matchAll(samples)].reduce((sum, [, count]) => sum + Number(count), 0);
}
