-- Figures the database keeps itself (#28 item 7): list totals, review stats and the dashboard's days,
-- maintained by statement-level triggers (transition tables) in the transaction of the change, so a bulk
-- insert or delete pays once per statement. Nothing else writes these tables. See docs/decisions.md.
CREATE FUNCTION aggregates_orders_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT n.business_id, n.status, n.amount, n.items, n.created_at, 1 AS sign FROM new_rows n),
  counted AS (
    INSERT INTO list_counts (business_id, list, key, n)
    SELECT d.business_id, 'orders', k.key, sum(d.sign) FROM d, LATERAL (VALUES (''), ('status:' || d.status)) AS k(key) GROUP BY 1, 3
    ON CONFLICT (business_id, list, key) DO UPDATE SET n = list_counts.n + excluded.n
    RETURNING 1),
  days AS (
    INSERT INTO order_days (business_id, day, status, orders, revenue)
    SELECT d.business_id, (d.created_at AT TIME ZONE b.timezone)::date, d.status, sum(d.sign), sum(d.sign * d.amount)
    FROM d JOIN businesses b ON b.id = d.business_id GROUP BY 1, 2, 3
    ON CONFLICT (business_id, day, status) DO UPDATE SET orders = order_days.orders + excluded.orders, revenue = order_days.revenue + excluded.revenue
    RETURNING 1)
  INSERT INTO product_days (business_id, day, product_id, name, quantity, revenue)
  SELECT d.business_id, (d.created_at AT TIME ZONE b.timezone)::date, i.item->>'productId',
    coalesce(max(i.item->>'name') FILTER (WHERE d.sign > 0), ''), sum(d.sign * (i.item->>'quantity')::bigint), sum(d.sign * (i.item->>'total')::bigint)
  FROM d JOIN businesses b ON b.id = d.business_id CROSS JOIN LATERAL jsonb_array_elements(d.items) AS i(item)
  WHERE d.status <> 'CANCELLED' GROUP BY 1, 2, 3
  ON CONFLICT (business_id, day, product_id) DO UPDATE SET name = greatest(product_days.name, excluded.name),
    quantity = product_days.quantity + excluded.quantity, revenue = product_days.revenue + excluded.revenue;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_orders_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT n.business_id, n.status, n.amount, n.items, n.created_at, 1 AS sign FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.created_at IS DISTINCT FROM n.created_at OR o.status IS DISTINCT FROM n.status OR o.amount IS DISTINCT FROM n.amount OR o.items IS DISTINCT FROM n.items
    UNION ALL SELECT o.business_id, o.status, o.amount, o.items, o.created_at, -1 AS sign FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.created_at IS DISTINCT FROM n.created_at OR o.status IS DISTINCT FROM n.status OR o.amount IS DISTINCT FROM n.amount OR o.items IS DISTINCT FROM n.items),
  counted AS (
    INSERT INTO list_counts (business_id, list, key, n)
    SELECT d.business_id, 'orders', k.key, sum(d.sign) FROM d, LATERAL (VALUES (''), ('status:' || d.status)) AS k(key) GROUP BY 1, 3
    ON CONFLICT (business_id, list, key) DO UPDATE SET n = list_counts.n + excluded.n
    RETURNING 1),
  days AS (
    INSERT INTO order_days (business_id, day, status, orders, revenue)
    SELECT d.business_id, (d.created_at AT TIME ZONE b.timezone)::date, d.status, sum(d.sign), sum(d.sign * d.amount)
    FROM d JOIN businesses b ON b.id = d.business_id GROUP BY 1, 2, 3
    ON CONFLICT (business_id, day, status) DO UPDATE SET orders = order_days.orders + excluded.orders, revenue = order_days.revenue + excluded.revenue
    RETURNING 1)
  INSERT INTO product_days (business_id, day, product_id, name, quantity, revenue)
  SELECT d.business_id, (d.created_at AT TIME ZONE b.timezone)::date, i.item->>'productId',
    coalesce(max(i.item->>'name') FILTER (WHERE d.sign > 0), ''), sum(d.sign * (i.item->>'quantity')::bigint), sum(d.sign * (i.item->>'total')::bigint)
  FROM d JOIN businesses b ON b.id = d.business_id CROSS JOIN LATERAL jsonb_array_elements(d.items) AS i(item)
  WHERE d.status <> 'CANCELLED' GROUP BY 1, 2, 3
  ON CONFLICT (business_id, day, product_id) DO UPDATE SET name = greatest(product_days.name, excluded.name),
    quantity = product_days.quantity + excluded.quantity, revenue = product_days.revenue + excluded.revenue;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_orders_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT o.business_id, o.status, o.amount, o.items, o.created_at, -1 AS sign FROM old_rows o),
  counted AS (
    INSERT INTO list_counts (business_id, list, key, n)
    SELECT d.business_id, 'orders', k.key, sum(d.sign) FROM d, LATERAL (VALUES (''), ('status:' || d.status)) AS k(key) GROUP BY 1, 3
    ON CONFLICT (business_id, list, key) DO UPDATE SET n = list_counts.n + excluded.n
    RETURNING 1),
  days AS (
    INSERT INTO order_days (business_id, day, status, orders, revenue)
    SELECT d.business_id, (d.created_at AT TIME ZONE b.timezone)::date, d.status, sum(d.sign), sum(d.sign * d.amount)
    FROM d JOIN businesses b ON b.id = d.business_id GROUP BY 1, 2, 3
    ON CONFLICT (business_id, day, status) DO UPDATE SET orders = order_days.orders + excluded.orders, revenue = order_days.revenue + excluded.revenue
    RETURNING 1)
  INSERT INTO product_days (business_id, day, product_id, name, quantity, revenue)
  SELECT d.business_id, (d.created_at AT TIME ZONE b.timezone)::date, i.item->>'productId',
    coalesce(max(i.item->>'name') FILTER (WHERE d.sign > 0), ''), sum(d.sign * (i.item->>'quantity')::bigint), sum(d.sign * (i.item->>'total')::bigint)
  FROM d JOIN businesses b ON b.id = d.business_id CROSS JOIN LATERAL jsonb_array_elements(d.items) AS i(item)
  WHERE d.status <> 'CANCELLED' GROUP BY 1, 2, 3
  ON CONFLICT (business_id, day, product_id) DO UPDATE SET name = greatest(product_days.name, excluded.name),
    quantity = product_days.quantity + excluded.quantity, revenue = product_days.revenue + excluded.revenue;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_aggregates_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_orders_insert();
--> statement-breakpoint
CREATE TRIGGER orders_aggregates_update AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_orders_update();
--> statement-breakpoint
CREATE TRIGGER orders_aggregates_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_orders_delete();
--> statement-breakpoint
CREATE FUNCTION aggregates_reviews_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT n.business_id, n.product_id, n.rating, 1 AS sign FROM new_rows n)
  INSERT INTO review_counts (business_id, product_id, rating, n)
  SELECT d.business_id, k.product_id, d.rating, sum(d.sign) FROM d, LATERAL (VALUES (''), (d.product_id)) AS k(product_id) GROUP BY 1, 2, 3
  ON CONFLICT (business_id, product_id, rating) DO UPDATE SET n = review_counts.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_reviews_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT n.business_id, n.product_id, n.rating, 1 AS sign FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.product_id IS DISTINCT FROM n.product_id OR o.rating IS DISTINCT FROM n.rating
    UNION ALL SELECT o.business_id, o.product_id, o.rating, -1 AS sign FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.product_id IS DISTINCT FROM n.product_id OR o.rating IS DISTINCT FROM n.rating)
  INSERT INTO review_counts (business_id, product_id, rating, n)
  SELECT d.business_id, k.product_id, d.rating, sum(d.sign) FROM d, LATERAL (VALUES (''), (d.product_id)) AS k(product_id) GROUP BY 1, 2, 3
  ON CONFLICT (business_id, product_id, rating) DO UPDATE SET n = review_counts.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_reviews_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT o.business_id, o.product_id, o.rating, -1 AS sign FROM old_rows o)
  INSERT INTO review_counts (business_id, product_id, rating, n)
  SELECT d.business_id, k.product_id, d.rating, sum(d.sign) FROM d, LATERAL (VALUES (''), (d.product_id)) AS k(product_id) GROUP BY 1, 2, 3
  ON CONFLICT (business_id, product_id, rating) DO UPDATE SET n = review_counts.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER reviews_aggregates_insert AFTER INSERT ON reviews REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_reviews_insert();
--> statement-breakpoint
CREATE TRIGGER reviews_aggregates_update AFTER UPDATE ON reviews REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_reviews_update();
--> statement-breakpoint
CREATE TRIGGER reviews_aggregates_delete AFTER DELETE ON reviews REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_reviews_delete();
--> statement-breakpoint
CREATE FUNCTION aggregates_products_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT n.business_id, n.category, 1 AS sign FROM new_rows n)
  INSERT INTO list_counts (business_id, list, key, n)
  SELECT d.business_id, 'products', k.key, sum(d.sign) FROM d, LATERAL (VALUES (''), ('category:' || d.category)) AS k(key) GROUP BY 1, 3
  ON CONFLICT (business_id, list, key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_products_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT n.business_id, n.category, 1 AS sign FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE o.category IS DISTINCT FROM n.category
    UNION ALL SELECT o.business_id, o.category, -1 AS sign FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.category IS DISTINCT FROM n.category)
  INSERT INTO list_counts (business_id, list, key, n)
  SELECT d.business_id, 'products', k.key, sum(d.sign) FROM d, LATERAL (VALUES (''), ('category:' || d.category)) AS k(key) GROUP BY 1, 3
  ON CONFLICT (business_id, list, key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_products_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (SELECT o.business_id, o.category, -1 AS sign FROM old_rows o)
  INSERT INTO list_counts (business_id, list, key, n)
  SELECT d.business_id, 'products', k.key, sum(d.sign) FROM d, LATERAL (VALUES (''), ('category:' || d.category)) AS k(key) GROUP BY 1, 3
  ON CONFLICT (business_id, list, key) DO UPDATE SET n = list_counts.n + excluded.n;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER products_aggregates_insert AFTER INSERT ON products REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_products_insert();
--> statement-breakpoint
CREATE TRIGGER products_aggregates_update AFTER UPDATE ON products REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_products_update();
--> statement-breakpoint
CREATE TRIGGER products_aggregates_delete AFTER DELETE ON products REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION aggregates_products_delete();
--> statement-breakpoint
CREATE FUNCTION aggregates_rebuild_days(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_days WHERE business_id = target;
  DELETE FROM product_days WHERE business_id = target;
  INSERT INTO order_days (business_id, day, status, orders, revenue)
  SELECT o.business_id, (o.created_at AT TIME ZONE b.timezone)::date, o.status, count(*), sum(o.amount)
  FROM orders o JOIN businesses b ON b.id = o.business_id WHERE o.business_id = target GROUP BY 1, 2, 3;
  INSERT INTO product_days (business_id, day, product_id, name, quantity, revenue)
  SELECT o.business_id, (o.created_at AT TIME ZONE b.timezone)::date, i.item->>'productId', max(i.item->>'name'),
    sum((i.item->>'quantity')::bigint), sum((i.item->>'total')::bigint)
  FROM orders o JOIN businesses b ON b.id = o.business_id CROSS JOIN LATERAL jsonb_array_elements(o.items) AS i(item)
  WHERE o.business_id = target AND o.status <> 'CANCELLED' GROUP BY 1, 2, 3;
END
$$;
--> statement-breakpoint
CREATE FUNCTION aggregates_business_timezone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM aggregates_rebuild_days(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER businesses_aggregates_timezone AFTER UPDATE OF timezone ON businesses FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION aggregates_business_timezone();
--> statement-breakpoint
INSERT INTO list_counts (business_id, list, key, n)
SELECT o.business_id, 'orders', k.key, count(*) FROM orders o, LATERAL (VALUES (''), ('status:' || o.status)) AS k(key) GROUP BY 1, 3;
--> statement-breakpoint
INSERT INTO list_counts (business_id, list, key, n)
SELECT p.business_id, 'products', k.key, count(*) FROM products p, LATERAL (VALUES (''), ('category:' || p.category)) AS k(key) GROUP BY 1, 3;
--> statement-breakpoint
INSERT INTO review_counts (business_id, product_id, rating, n)
SELECT r.business_id, k.product_id, r.rating, count(*) FROM reviews r, LATERAL (VALUES (''), (r.product_id)) AS k(product_id) GROUP BY 1, 2, 3;
--> statement-breakpoint
SELECT aggregates_rebuild_days(id) FROM businesses;
