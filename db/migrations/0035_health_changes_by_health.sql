-- The overview strips ranked by worst in window (issue 22 item 1): per scheduler, for each health in
-- severity order, is there a change of it inside the window? One probe of this index each, at most six
-- a scheduler whatever the window's length or the churn, instead of reading every change of the window
-- (6.7 million rows at 7 d for 10,000 schedulers at the size model's churn). Pruned with its table.
CREATE INDEX "health_changes_name_health_at" ON "health_changes" USING btree ("name","health","at");
